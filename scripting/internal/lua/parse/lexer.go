package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/scripting/internal/lua/ast"   // [mod2048] this copy's path
	"github.com/mod2048/mod2048/scripting/internal/workcount" // [mod2048] the work count (PATCHES.md, 19)
)

const EOF = -1
const whitespace1 = 1<<'\t' | 1<<' '
const whitespace2 = 1<<'\t' | 1<<'\n' | 1<<'\r' | 1<<' '

type Error struct {
	Pos     ast.Position
	Message string
	Token   string
	// [mod2048] Opened is where the block or bracket that Message says is
	// left open was opened (a syntax error's "'end' expected (to close
	// 'function' at line 4)"); its Line is 0 for any other error.
	Opened ast.Position
}

func (e *Error) Error() string {
	pos := e.Pos
	if pos.Line == EOF {
		return fmt.Sprintf("%v at EOF:   %s\n", pos.Source, e.Message)
	} else {
		return fmt.Sprintf("%v line:%d(column:%d) near '%v':   %s\n", pos.Source, pos.Line, pos.Column, e.Token, e.Message)
	}
}

func writeChar(buf *bytes.Buffer, c int) { buf.WriteByte(byte(c)) }

func isDecimal(ch int) bool { return '0' <= ch && ch <= '9' }

func isIdent(ch int, pos int) bool {
	return ch == '_' || 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z' || isDecimal(ch) && pos > 0
}

func isDigit(ch int) bool {
	return '0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f' || 'A' <= ch && ch <= 'F'
}

type Scanner struct {
	Pos    ast.Position
	reader *bufio.Reader
	// [mod2048] lastLine is the line the scanner was on when it reached the
	// end of the file (Pos.Line is EOF then), for syntaxError.
	lastLine int
}

func NewScanner(reader io.Reader, source string) *Scanner {
	return &Scanner{
		Pos: ast.Position{
			Source: source,
			Line:   1,
			Column: 0,
		},
		reader: bufio.NewReaderSize(reader, 4096),
	}
}

// [mod2048] Error's fields by name (it has Opened).
func (sc *Scanner) Error(tok string, msg string) *Error {
	return &Error{Pos: sc.Pos, Message: msg, Token: tok}
}

func (sc *Scanner) TokenError(tok ast.Token, msg string) *Error {
	return &Error{Pos: tok.Pos, Message: msg, Token: tok.Str} // [mod2048] by name
}

func (sc *Scanner) readNext() int {
	ch, err := sc.reader.ReadByte()
	if err == io.EOF {
		return EOF
	}
	return int(ch)
}

func (sc *Scanner) Newline(ch int) {
	if ch < 0 {
		return
	}
	sc.Pos.Line += 1
	sc.Pos.Column = 0
	next := sc.Peek()
	if ch == '\n' && next == '\r' || ch == '\r' && next == '\n' {
		sc.reader.ReadByte()
	}
}

func (sc *Scanner) Next() int {
	ch := sc.readNext()
	switch ch {
	case '\n', '\r':
		sc.Newline(ch)
		ch = int('\n')
	case EOF:
		if sc.Pos.Line != EOF { // [mod2048] lastLine
			sc.lastLine = sc.Pos.Line
		}
		sc.Pos.Line = EOF
		sc.Pos.Column = 0
	default:
		sc.Pos.Column++
	}
	return ch
}

func (sc *Scanner) Peek() int {
	ch := sc.readNext()
	if ch != EOF {
		sc.reader.UnreadByte()
	}
	return ch
}

func (sc *Scanner) skipWhiteSpace(whitespace int64) int {
	ch := sc.Next()
	for ; whitespace&(1<<uint(ch)) != 0; ch = sc.Next() {
		workcount.Step()
	}
	return ch
}

func (sc *Scanner) skipComments(ch int) error {
	// multiline comment
	if sc.Peek() == '[' {
		ch = sc.Next()
		if sc.Peek() == '[' || sc.Peek() == '=' {
			var buf bytes.Buffer
			if err := sc.scanMultilineString(sc.Next(), &buf); err != nil {
				return sc.Error(buf.String(), "invalid multiline comment")
			}
			return nil
		}
	}
	for {
		workcount.Step()
		if ch == '\n' || ch == '\r' || ch < 0 {
			break
		}
		ch = sc.Next()
	}
	return nil
}

func (sc *Scanner) scanIdent(ch int, buf *bytes.Buffer) error {
	writeChar(buf, ch)
	for isIdent(sc.Peek(), 1) {
		workcount.Step()
		writeChar(buf, sc.Next())
	}
	return nil
}

func (sc *Scanner) scanDecimal(ch int, buf *bytes.Buffer) error {
	writeChar(buf, ch)
	for isDecimal(sc.Peek()) {
		workcount.Step()
		writeChar(buf, sc.Next())
	}
	return nil
}

func (sc *Scanner) scanNumber(ch int, buf *bytes.Buffer) error {
	if ch == '0' { // octal
		if sc.Peek() == 'x' || sc.Peek() == 'X' {
			writeChar(buf, ch)
			writeChar(buf, sc.Next())
			hasvalue := false
			for isDigit(sc.Peek()) {
				workcount.Step()
				writeChar(buf, sc.Next())
				hasvalue = true
			}
			if !hasvalue {
				return sc.Error(buf.String(), "illegal hexadecimal number")
			}
			return nil
		} else if sc.Peek() != '.' && isDecimal(sc.Peek()) {
			ch = sc.Next()
		}
	}
	sc.scanDecimal(ch, buf)
	if sc.Peek() == '.' {
		sc.scanDecimal(sc.Next(), buf)
	}
	if ch = sc.Peek(); ch == 'e' || ch == 'E' {
		writeChar(buf, sc.Next())
		if ch = sc.Peek(); ch == '-' || ch == '+' {
			writeChar(buf, sc.Next())
		}
		sc.scanDecimal(sc.Next(), buf)
	}

	return nil
}

func (sc *Scanner) scanString(quote int, buf *bytes.Buffer) error {
	ch := sc.Next()
	for ch != quote {
		workcount.Step()
		if ch == '\n' || ch == '\r' || ch < 0 {
			return sc.Error(buf.String(), "unterminated string")
		}
		if ch == '\\' {
			if err := sc.scanEscape(ch, buf); err != nil {
				return err
			}
		} else {
			writeChar(buf, ch)
		}
		ch = sc.Next()
	}
	return nil
}

func (sc *Scanner) scanEscape(ch int, buf *bytes.Buffer) error {
	ch = sc.Next()
	switch ch {
	case 'a':
		buf.WriteByte('\a')
	case 'b':
		buf.WriteByte('\b')
	case 'f':
		buf.WriteByte('\f')
	case 'n':
		buf.WriteByte('\n')
	case 'r':
		buf.WriteByte('\r')
	case 't':
		buf.WriteByte('\t')
	case 'v':
		buf.WriteByte('\v')
	case '\\':
		buf.WriteByte('\\')
	case '"':
		buf.WriteByte('"')
	case '\'':
		buf.WriteByte('\'')
	case '\n':
		buf.WriteByte('\n')
	case '\r':
		buf.WriteByte('\n')
		sc.Newline('\r')
	default:
		if '0' <= ch && ch <= '9' {
			bytes := []byte{byte(ch)}
			for i := 0; i < 2 && isDecimal(sc.Peek()); i++ {
				workcount.Step()
				bytes = append(bytes, byte(sc.Next()))
			}
			val, _ := strconv.ParseInt(string(bytes), 10, 32)
			writeChar(buf, int(val))
		} else {
			writeChar(buf, ch)
		}
	}
	return nil
}

func (sc *Scanner) countSep(ch int) (int, int) {
	count := 0
	for ; ch == '='; count = count + 1 {
		workcount.Step()
		ch = sc.Next()
	}
	return count, ch
}

func (sc *Scanner) scanMultilineString(ch int, buf *bytes.Buffer) error {
	var count1, count2 int
	count1, ch = sc.countSep(ch)
	if ch != '[' {
		return sc.Error(string(rune(ch)), "invalid multiline string")
	}
	ch = sc.Next()
	if ch == '\n' || ch == '\r' {
		ch = sc.Next()
	}
	for {
		workcount.Step()
		if ch < 0 {
			return sc.Error(buf.String(), "unterminated multiline string")
		} else if ch == ']' {
			count2, ch = sc.countSep(sc.Next())
			if count1 == count2 && ch == ']' {
				goto finally
			}
			buf.WriteByte(']')
			buf.WriteString(strings.Repeat("=", count2))
			continue
		}
		writeChar(buf, ch)
		ch = sc.Next()
	}

finally:
	return nil
}

var reservedWords = map[string]int{
	"and": TAnd, "break": TBreak, "do": TDo, "else": TElse, "elseif": TElseIf,
	"end": TEnd, "false": TFalse, "for": TFor, "function": TFunction,
	"if": TIf, "in": TIn, "local": TLocal, "nil": TNil, "not": TNot, "or": TOr,
	"return": TReturn, "repeat": TRepeat, "then": TThen, "true": TTrue,
	"until": TUntil, "while": TWhile, "goto": TGoto}

func (sc *Scanner) Scan(lexer *Lexer) (ast.Token, error) {
redo:
	var err error
	tok := ast.Token{}
	newline := false

	ch := sc.skipWhiteSpace(whitespace1)
	if ch == '\n' || ch == '\r' {
		newline = true
		ch = sc.skipWhiteSpace(whitespace2)
	}

	if ch == '(' && lexer.PrevTokenType == ')' {
		lexer.PNewLine = newline
	} else {
		lexer.PNewLine = false
	}

	var _buf bytes.Buffer
	buf := &_buf
	tok.Pos = sc.Pos

	switch {
	case isIdent(ch, 0):
		tok.Type = TIdent
		err = sc.scanIdent(ch, buf)
		tok.Str = buf.String()
		if err != nil {
			goto finally
		}
		if typ, ok := reservedWords[tok.Str]; ok {
			tok.Type = typ
		}
	case isDecimal(ch):
		tok.Type = TNumber
		err = sc.scanNumber(ch, buf)
		tok.Str = buf.String()
	default:
		switch ch {
		case EOF:
			tok.Type = EOF
		case '-':
			if sc.Peek() == '-' {
				err = sc.skipComments(sc.Next())
				if err != nil {
					goto finally
				}
				goto redo
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '"', '\'':
			tok.Type = TString
			err = sc.scanString(ch, buf)
			tok.Str = buf.String()
		case '[':
			if c := sc.Peek(); c == '[' || c == '=' {
				tok.Type = TString
				err = sc.scanMultilineString(sc.Next(), buf)
				tok.Str = buf.String()
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '=':
			if sc.Peek() == '=' {
				tok.Type = TEqeq
				tok.Str = "=="
				sc.Next()
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '~':
			if sc.Peek() == '=' {
				tok.Type = TNeq
				tok.Str = "~="
				sc.Next()
			} else {
				err = sc.Error("~", "Invalid '~' token")
			}
		case '<':
			if sc.Peek() == '=' {
				tok.Type = TLte
				tok.Str = "<="
				sc.Next()
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '>':
			if sc.Peek() == '=' {
				tok.Type = TGte
				tok.Str = ">="
				sc.Next()
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '.':
			ch2 := sc.Peek()
			switch {
			case isDecimal(ch2):
				tok.Type = TNumber
				err = sc.scanNumber(ch, buf)
				tok.Str = buf.String()
			case ch2 == '.':
				writeChar(buf, ch)
				writeChar(buf, sc.Next())
				if sc.Peek() == '.' {
					writeChar(buf, sc.Next())
					tok.Type = T3Comma
				} else {
					tok.Type = T2Comma
				}
			default:
				tok.Type = '.'
			}
			tok.Str = buf.String()
		case ':':
			if sc.Peek() == ':' {
				tok.Type = T2Colon
				tok.Str = "::"
				sc.Next()
			} else {
				tok.Type = ch
				tok.Str = string(rune(ch))
			}
		case '+', '*', '/', '%', '^', '#', '(', ')', '{', '}', ']', ';', ',':
			tok.Type = ch
			tok.Str = string(rune(ch))
		default:
			writeChar(buf, ch)
			err = sc.Error(buf.String(), "Invalid token")
			goto finally
		}
	}

finally:
	tok.Name = TokenName(int(tok.Type))
	return tok, err
}

// yacc interface {{{

type Lexer struct {
	scanner       *Scanner
	Stmts         []ast.Stmt
	PNewLine      bool
	Token         ast.Token
	PrevTokenType int
}

func (lx *Lexer) Lex(lval *yySymType) int {
	lx.PrevTokenType = lx.Token.Type
	tok, err := lx.scanner.Scan(lx)
	if err != nil {
		panic(err)
	}
	if tok.Type < 0 {
		lx.Token = tok // [mod2048] the parser's errors are at the token it reached, the end of the file too
		return 0
	}
	lval.token = tok
	lx.Token = tok
	return int(tok.Type)
}

// [mod2048] Error is an error at the token the parser reached, where that
// token starts (upstream gave where it ends, the scanner's place).
func (lx *Lexer) Error(message string) {
	panic(lx.scanner.TokenError(lx.Token, message)) // [mod2048] the token's start
}

func (lx *Lexer) TokenError(tok ast.Token, message string) {
	panic(lx.scanner.TokenError(tok, message))
}

// [mod2048] syntaxError is the parser's error at the token it reached
// (lx.Token), in state with stack (goyacc's, stack[len(stack)-1] in
// state). Where the parser could take the closer of the innermost block or
// bracket still open on its stack, the error says so as Lua 5.1 does:
// "'end' expected (to close 'function' at line 4)" (no "to close" when it
// opened on the error's line), "'<eof>' expected" with none open (an end
// too many), and the error's Opened is where it opened. Else, where it
// could take the then of an if or the do of a loop, "'then' expected";
// else "syntax error". The stack holds the tokens shifted and not yet
// reduced: a block or bracket closed is reduced, so those left are the
// open ones, and their closers balance.
func (lx *Lexer) syntaxError(stack []yySymType, state int) {
	var open []ast.Token // the openers on the stack, innermost last
	loopDo := false      // the top of open is a while or for whose do is shifted
	for _, e := range stack[1:] {
		workcount.Step()
		sym := int(yyChk[e.yys])
		if sym <= 0 {
			continue // a nonterminal: a whole construct, or none yet
		}
		switch e.token.Type {
		case TFunction, TIf, TWhile, TFor, TRepeat, '(', '{', '[':
			open, loopDo = append(open, e.token), false
		case TDo:
			if n := len(open); n > 0 && (open[n-1].Type == TWhile || open[n-1].Type == TFor) && !loopDo {
				loopDo = true
			} else {
				open, loopDo = append(open, e.token), false
			}
		case TEnd, TUntil, ')', '}', ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			loopDo = false // a loop's body is a block: its end closes it first
		}
	}
	err := lx.scanner.TokenError(lx.Token, "syntax error")
	closer, what := EOF, "<eof>"
	var opener ast.Token
	if n := len(open); n > 0 {
		opener = open[n-1]
		closer, what = closerOf(opener.Type)
	}
	switch {
	case yyTakes(state, closer):
		err.Message = "'" + what + "' expected"
		if opener.Type != 0 {
			err.Opened = opener.Pos
			line := lx.Token.Pos.Line
			if line == EOF {
				line = lx.scanner.lastLine
			}
			if opener.Pos.Line != line {
				err.Message += fmt.Sprintf(" (to close '%s' at line %d)", opener.Str, opener.Pos.Line)
			}
		}
	case yyTakes(state, TThen):
		err.Message = "'then' expected"
	case yyTakes(state, TDo):
		err.Message = "'do' expected"
	}
	panic(err)
}

// [mod2048] closerOf is the token that closes an opener, and its text.
func closerOf(opener int) (int, string) {
	switch opener {
	case TRepeat:
		return TUntil, "until"
	case '(':
		return ')', ")"
	case '{':
		return '}', "}"
	case '[':
		return ']', "]"
	}
	return TEnd, "end"
}

// [mod2048] yyTakes says whether the parser in state can take the token
// typed char next (shift it, reduce or accept before it), as goyacc's
// yyErrorMessage reads its tables.
func yyTakes(state, char int) bool {
	tok := yyInternal(char)
	if n := int(yyPact[state]) + tok; n >= 0 && n < yyLast && int(yyChk[int(yyAct[n])]) == tok {
		return true
	}
	if yyDef[state] != -2 {
		return yyDef[state] != 0
	}
	i := 0
	for yyExca[i] != -1 || int(yyExca[i+1]) != state {
		workcount.Step()
		i += 2
	}
	for i += 2; yyExca[i] >= 0; i += 2 {
		workcount.Step()
		if int(yyExca[i]) == tok {
			return yyExca[i+1] != 0
		}
	}
	return yyExca[i+1] != 0
}

// [mod2048] yyInternal is goyacc's number for the token typed char, as
// yylex1 finds it.
func yyInternal(char int) int {
	switch {
	case char <= 0:
		return int(yyTok1[0])
	case char < len(yyTok1):
		return int(yyTok1[char])
	case char >= yyPrivate && char < yyPrivate+len(yyTok2):
		return int(yyTok2[char-yyPrivate])
	}
	for i := 0; i+1 < len(yyTok3); i += 2 {
		workcount.Step()
		if int(yyTok3[i]) == char {
			return int(yyTok3[i+1])
		}
	}
	return int(yyTok2[1])
}

// [mod2048] maxStack bounds the parser's stack (goyacc's, which grows by
// doubling, each entry some 300 bytes): a right-associative operator chain
// (a ^ a ^ …, a .. a .. …) or a chain of unary operators (- - - … a) keeps
// each operator on it until the chain ends, so that upstream took 150 MB to
// parse 256 KiB of a ^ a ^ …. The stack holds at most a dozen entries for
// each level a source nests (a block, a bracket, an operator), so a source
// the host accepts (blocks and brackets 200 deep, expressions 1000 deep)
// holds a few thousand; past maxStack the parse stops with tooDeep at the
// token it reached. The bound is in parser.go, which goyacc writes: a
// parser.go made anew must have it put back (PATCHES.md).
const maxStack = 1 << 14

// [mod2048] tooDeep is the parser's error past maxStack.
const tooDeep = "expressions nested too deep (an operator chain counts each operator)"

func Parse(reader io.Reader, name string) (chunk []ast.Stmt, err error) {
	lexer := &Lexer{NewScanner(reader, name), nil, false, ast.Token{Str: ""}, TNil}
	chunk = nil
	defer func() {
		if e := recover(); e != nil {
			err, _ = e.(error)
		}
	}()
	yyParse(lexer)
	chunk = lexer.Stmts
	return
}

// }}}

// Dump {{{

func isInlineDumpNode(rv reflect.Value) bool {
	switch rv.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Interface, reflect.Ptr:
		return false
	default:
		return true
	}
}

func dump(node interface{}, level int, s string) string {
	rt := reflect.TypeOf(node)
	if fmt.Sprint(rt) == "<nil>" {
		return strings.Repeat(s, level) + "<nil>"
	}

	rv := reflect.ValueOf(node)
	buf := []string{}
	switch rt.Kind() {
	case reflect.Slice:
		if rv.Len() == 0 {
			return strings.Repeat(s, level) + "<empty>"
		}
		for i := 0; i < rv.Len(); i++ {
			buf = append(buf, dump(rv.Index(i).Interface(), level, s))
		}
	case reflect.Ptr:
		vt := rv.Elem()
		tt := rt.Elem()
		indicies := []int{}
		for i := 0; i < tt.NumField(); i++ {
			if strings.Index(tt.Field(i).Name, "Base") > -1 {
				continue
			}
			indicies = append(indicies, i)
		}
		switch {
		case len(indicies) == 0:
			return strings.Repeat(s, level) + "<empty>"
		case len(indicies) == 1 && isInlineDumpNode(vt.Field(indicies[0])):
			for _, i := range indicies {
				buf = append(buf, strings.Repeat(s, level)+"- Node$"+tt.Name()+": "+dump(vt.Field(i).Interface(), 0, s))
			}
		default:
			buf = append(buf, strings.Repeat(s, level)+"- Node$"+tt.Name())
			for _, i := range indicies {
				if isInlineDumpNode(vt.Field(i)) {
					inf := dump(vt.Field(i).Interface(), 0, s)
					buf = append(buf, strings.Repeat(s, level+1)+tt.Field(i).Name+": "+inf)
				} else {
					buf = append(buf, strings.Repeat(s, level+1)+tt.Field(i).Name+": ")
					buf = append(buf, dump(vt.Field(i).Interface(), level+2, s))
				}
			}
		}
	default:
		buf = append(buf, strings.Repeat(s, level)+fmt.Sprint(node))
	}
	return strings.Join(buf, "\n")
}

func Dump(chunk []ast.Stmt) string {
	return dump(chunk, 0, "   ")
}

// }}
