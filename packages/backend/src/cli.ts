#!/usr/bin/env node
/**
 * The bin `crypto-checkout-backend`. First V8's young generation is kept at its first size (young-generation.ts),
 * before any of the app's modules load: Node parses a whole static import graph before it runs any of it, and
 * that parsing alone would grow the young generation to its cap; and its old generation's growth is bounded
 * (old-generation.ts). Then the command line itself (command.ts).
 */
import './process/young-generation.ts';
import './process/old-generation.ts';

await import('./process/command.ts');
