#!/usr/bin/env node
/**
 * The `emulator` command's entry: the heap setting takes effect before any other module is even
 * parsed, then the program loads (emulator/cli/program.ts).
 */
import './cli/heap.js';

void import('./cli/program.js');
