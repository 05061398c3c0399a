// The machine a run was measured on: results only compare within one run, but readers need
// to know what produced them (and whether the machine was busy: load averages).
import os from "node:os";

export interface MachineInfo {
  cpu: string;
  cores: number;
  platform: string;
  arch: string;
  node: string;
  v8: string;
  memoryGiB: number;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    platform: os.platform(),
    arch: os.arch(),
    node: process.version,
    v8: process.versions.v8,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
