#!/usr/bin/env node
// The chessbridge command: runs the built application (npm run build writes dist/).
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2));
