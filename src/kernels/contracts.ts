// Every kernel contract by name: the one list a new kernel joins (see docs/notes/kernels.md).
import { BOPF } from "./bopf/contract.js";
import { CRV } from "./crv/contract.js";
import { DRF } from "./drf/contract.js";
import { LTRF } from "./ltrf/contract.js";
import { SRPT } from "./srpt/contract.js";

export const CONTRACTS = { drf: DRF, srpt: SRPT, ltrf: LTRF, crv: CRV, bopf: BOPF } as const;
