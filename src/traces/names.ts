// Names read from a trace (SWIM job ids, Google users, logical job names) become job ids and
// queue names that reports and the CLI print. A name with terminal control characters is
// stored escaped (sanitizeForTerminal), so no later printer can be tricked by it; escaping is
// not injective, so two different raw names that escape to one text are a bad line rather
// than silently one job or one queue.
import { hasTerminalControls, sanitizeForTerminal } from "../util/terminal.js";
import { LineProblem } from "./issues.js";

export class NameEscaper {
  /** escaped text -> the raw name that first produced it */
  private readonly rawOf = new Map<string, string>();
  /** Names changed by escaping so far (for summary.adjusted.names_escaped). */
  escaped = 0;

  /** The name to store for `raw` (of the trace field `field`), or a LineProblem on a collision. */
  name(raw: string, field: string): string | LineProblem {
    const clean = hasTerminalControls(raw) ? sanitizeForTerminal(raw) : raw;
    const first = this.rawOf.get(clean);
    if (first === undefined) {
      this.rawOf.set(clean, raw);
      if (clean !== raw) this.escaped++;
    } else if (first !== raw) {
      return new LineProblem("name_collision", `${field} ${JSON.stringify(clean)} is another name's text after escaping terminal control characters; rename one of them`);
    }
    return clean;
  }
}
