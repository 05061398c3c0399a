// Importing this module registers every built-in policy (each file registers itself).
// Add one import line per policy module.
import "./drf.js";
import "./sp.js";
import "./fifo.js";
import "./bopf.js";
import "./nbopf.js";
import "./mbvt.js";
import "./ltrf.js";
import "./hltrf.js";
