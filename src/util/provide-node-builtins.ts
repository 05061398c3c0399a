// Side effect on purpose (listed in package.json "sideEffects"): gives src/util/node-builtins.ts
// the Node modules through static imports, which every Node from 20.0, Deno and Bun resolve.
// Only the Node entry points (src/node/) and the CLI import this file; browsers never see it.
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import * as zlib from "node:zlib";
import { provideNodeBuiltins } from "./node-builtins.js";

provideNodeBuiltins({ "node:fs": fs, "node:path": path, "node:readline": readline, "node:zlib": zlib });
