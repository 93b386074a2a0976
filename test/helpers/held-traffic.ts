/**
 * What both emulators (Google's and Microsoft Graph's) do with requests besides answering them:
 * hold a request a `late` fault delays, to run it after its client gave up, and run a test's
 * hook right after the next request of a kind ran (a person editing between a read and a write).
 */
export class HeldTraffic<Kind extends string> {
  /** Requests held by a `late` fault, not yet run. */
  private held: (() => void)[] = [];
  /** What a test runs once the next request of a kind has run, before it is answered. */
  private hooks: { kind: Kind; then: () => void }[] = [];

  /** Keeps a held request to run at `applyHeld()`, or by itself after `afterMs`. */
  hold(run: () => void, afterMs: number | undefined): void {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      this.held = this.held.filter((each) => each !== once);
      run();
    };
    this.held.push(once);
    if (afterMs !== undefined) setTimeout(once, afterMs).unref();
  }

  /** Runs every held request now, oldest first; answers how many ran. */
  applyHeld(): number {
    const held = [...this.held];
    for (const run of held) run();
    return held.length;
  }

  get heldCount(): number {
    return this.held.length;
  }

  afterNext(kind: Kind, then: () => void): void {
    this.hooks.push({ kind, then });
  }

  /** Called once a request has run (or was refused): the first hook waiting for its kind fires. */
  ran(kind: Kind): void {
    const index = this.hooks.findIndex((hook) => hook.kind === kind);
    if (index < 0) return;
    const [hook] = this.hooks.splice(index, 1);
    hook?.then();
  }
}
