// Reads IRFsim's generated queue and job files from disk and converts them (see irfsim.ts).
import { readFile, stat } from "node:fs/promises";
import { InputError } from "../errors.js";
import { convertIrfsim, type IrfsimConversion, type IrfsimConvertOptions } from "./irfsim.js";

/** IRFsim's files for its paper setups are under 1 MB; this bounds what one load reads. */
const MAX_BYTES = 256 * 2 ** 20;

async function readText(file: string): Promise<string> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(file, code === "ENOENT" ? "no such file" : `cannot read (${(e as Error).message})`);
  }
  if (size > MAX_BYTES) throw new InputError(file, `${size} bytes, beyond the ${MAX_BYTES} an IRFsim file may have`);
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(file, `cannot read (${(e as Error).message})`);
  }
}

/** Loads `queue_input_*.txt` and `jobs_input_*.txt` as IRFsim wrote them and converts them. */
export async function loadIrfsim(queueFile: string, jobFile: string, options: IrfsimConvertOptions): Promise<IrfsimConversion> {
  const [q, j] = await Promise.all([readText(queueFile), readText(jobFile)]);
  return convertIrfsim({ file: queueFile, text: q }, { file: jobFile, text: j }, options);
}
