// Importing this module registers every built-in scenario (each file registers itself).
// Add one import line per scenario module.
import "../policies/index.js";
import "./default.js";
import "./ltrf-table1.js";
import "./ltrf-hierarchy.js";
import "./ltrf-macro.js";
import "./bopf.js";
import "./bopf-multi-lq.js";
import "./bopf-uncertain.js";
import "./bopf-estimation-error.js";
import "./justice.js";
import "./phoenix.js";
