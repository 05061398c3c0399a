// Kernel status codes, shared by both backends: the same list as assembly/util/status.ts
// (same names, CamelCase here, and values; test/kernels.status.test.ts pins them equal).
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
  /** LTRF: a start beyond maxStarts was due (index: its queue); the outputs hold the starts made. */
  StartLimit = 17,
  /** LTRF: maxStarts not a whole number >= 0 or +Infinity. */
  MaxStarts = 18,
  // BoPF (assembly/bopf.ts), numbered from 32 so codes added for other kernels stay below
  BopfKind = 32,
  BopfStart = 33,
  BopfPeriod = 34,
  BopfWindow = 35,
  BopfCount = 36,
  BopfVolume = 37,
  BopfClass = 38,
  /** Not an error: the BoPF allocation round needs the general path (src/bopf/allocate.ts). */
  BopfGeneral = -1,
}
