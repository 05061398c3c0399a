// What a path that is not a regular file is, for messages that name it (a trace given as a
// directory, FIFO or device must be refused up front: a stream or device may never end).
import type { Stats } from "node:fs";

/** null for a regular file, else "a directory", "a FIFO (named pipe)", a device, "a socket", ... */
export function nonRegularKind(st: Pick<Stats, "isFile" | "isDirectory" | "isFIFO" | "isCharacterDevice" | "isBlockDevice" | "isSocket">): string | null {
  return st.isFile() ? null
    : st.isDirectory() ? "a directory"
    : st.isFIFO() ? "a FIFO (named pipe)"
    : st.isCharacterDevice() ? "a character device"
    : st.isBlockDevice() ? "a block device"
    : st.isSocket() ? "a socket"
    : "not a regular file";
}
