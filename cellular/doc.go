// Package cellular is Cellular 2048 (seeds/004): swipes crossed with a
// modified Game of Life, with energy, dormancy, catalysts, blight, isolation
// decay, colony bonus and stability scoring. It is a ruleset on the engine,
// as the classic rules are; RULES.md in this folder writes down every rule and
// every decision the seed leaves open.
package cellular
