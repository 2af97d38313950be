package saves

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mod2048/mod2048/engine"
)

// BestFile is the file of best scores in the store's folder; BestFormat and
// BestVersion name its document.
const (
	BestFile    = "best.json"
	BestFormat  = "2048-best"
	BestVersion = 1
)

// bestDoc is best.json: for each key's Name, the best score as the
// ruleset writes scores ("1234", or "12.25" for cellular).
type bestDoc struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Best    map[string]string `json:"best"`
}

func (s *Store) bestPath() string { return filepath.Join(s.Dir, BestFile) }

// readBest reads best.json. A missing file is no scores; a file that
// cannot be read as best scores (or is over MaxBest) is kept aside (see
// Load) and reported as a *CorruptError, with no scores; a file that cannot
// be read at all is a *ReadError, and SetBest leaves it alone.
func (s *Store) readBest() (map[string]string, error) {
	path := s.bestPath()
	data, bad, err := s.read(path, MaxBest)
	switch {
	case err != nil:
		return map[string]string{}, err
	case bad != nil:
		return map[string]string{}, s.keepAside(path, bad)
	case data == nil:
		return map[string]string{}, nil
	}
	var d bestDoc
	err = json.Unmarshal(data, &d)
	switch {
	case err != nil:
		err = fmt.Errorf("not a best-score file: %v", err)
	case d.Format != BestFormat:
		err = fmt.Errorf("format is %q, want %q", d.Format, BestFormat)
	case d.Version < 1 || d.Version > BestVersion:
		err = fmt.Errorf("version %d; this program reads versions 1 to %d", d.Version, BestVersion)
	}
	if err != nil {
		return map[string]string{}, s.keepAside(path, err)
	}
	if d.Best == nil {
		d.Best = map[string]string{}
	}
	return d.Best, nil
}

// Best returns the best score for k, read with the rules' score notation
// (0 when there is none). A best-score file that cannot be read is kept
// aside and reported (*CorruptError) with a score of 0; an entry the rules
// cannot read counts as 0.
func (s *Store) Best(k Key, r engine.Rules) (engine.Score, error) {
	best, err := s.readBest()
	text, ok := best[k.Name()]
	if !ok {
		return engine.Score{}, err
	}
	score, perr := engine.ParseScoreFor(r, text)
	if perr != nil {
		return engine.Score{}, fmt.Errorf("%s: %s: %v", s.bestPath(), k.Name(), perr)
	}
	return score, err
}

// SetBest records score as the best for k if it beats the one on file, and
// writes best.json atomically, keeping every other key's score.
func (s *Store) SetBest(k Key, r engine.Rules, score engine.Score) error {
	best, err := s.readBest()
	var ce *CorruptError
	if err != nil && !errors.As(err, &ce) {
		return err
	}
	if text, ok := best[k.Name()]; ok {
		if old, perr := engine.ParseScoreFor(r, text); perr == nil && old.Cmp(score) >= 0 {
			return err
		}
	}
	best[k.Name()] = engine.FormatScore(r, score)
	data, merr := json.MarshalIndent(bestDoc{Format: BestFormat, Version: BestVersion, Best: best}, "", "  ")
	if merr != nil {
		return merr
	}
	if werr := WriteFile(s.bestPath(), append(data, '\n')); werr != nil {
		return werr
	}
	return err
}

// Slot is the save and best score of one key: what the terminal game
// needs of the store.
type Slot struct {
	Store *Store
	Key   Key
}

// Slot returns the slot of k.
func (s *Store) Slot(k Key) *Slot { return &Slot{Store: s, Key: k} }

// Save writes game (session.Session.Save) as the slot's save.
func (sl *Slot) Save(game []byte) error { return sl.Store.Save(sl.Key, game) }

// Best returns the slot's best score.
func (sl *Slot) Best(r engine.Rules) (engine.Score, error) { return sl.Store.Best(sl.Key, r) }

// SetBest records a new best score for the slot.
func (sl *Slot) SetBest(r engine.Rules, score engine.Score) error {
	return sl.Store.SetBest(sl.Key, r, score)
}
