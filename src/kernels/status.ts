// Kernel status codes, shared by both backends. Keep in sync with assembly/util/status.ts.
export const enum Status {
  OK = 0,
  Capacity = 1,
  Demand = 2,
  Weight = 3,
  Offset = 4,
  ShareOverflow = 5,
  Available = 6,
  Rate = 7,
  Volume = 8,
  Pending = 9,
  Usage = 10,
  Increment = 11,
  CrvOffset = 12,
  CrvScore = 13,
  CrvRuntime = 14,
  CrvSlack = 15,
  CrvMode = 16,
}

/** Result of a kernel call: a status and, when it is not OK, the offending flat index. */
export interface KernelStatus {
  code: Status;
  index: number;
}

export const STATUS_OK: KernelStatus = Object.freeze({ code: Status.OK, index: -1 });
