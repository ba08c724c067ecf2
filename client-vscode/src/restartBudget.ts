/**
 * How often a crashing server is restarted before the extension gives up and
 * says so. Pure, so the limit is unit-tested without a server.
 */
export class RestartBudget {
    private crashes: number[] = [];

    /**
     * @param maxRestarts restarts allowed within `windowMs`
     * @param windowMs crashes older than this are forgotten
     */
    constructor(
        readonly maxRestarts = 3,
        readonly windowMs = 3 * 60 * 1000,
        private readonly now: () => number = Date.now,
    ) {}

    /** Records a crash; true when one more restart is allowed. */
    crashed(): boolean {
        const t = this.now();
        this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
        this.crashes.push(t);
        return this.crashes.length <= this.maxRestarts;
    }

    /** A start the user asked for (restart command, settings change) resets the count. */
    reset(): void {
        this.crashes = [];
    }

    get recentCrashes(): number {
        return this.crashes.length;
    }
}
