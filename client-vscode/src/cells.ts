/**
 * `# %%` cells in a Python file (the Jupyter "percent" format that VS Code,
 * Spyder and jupytext share). Pure, unit-tested.
 */

/** A line that starts a cell: `# %%`, `#%%`, `# %% [markdown]` (the server's rule too). */
const CELL_MARKER = /^\s*#\s*%%/;

export function isCellMarker(line: string): boolean {
    return CELL_MARKER.test(line);
}

/** 0-based lines of every cell marker, in order. */
export function cellStarts(lines: readonly string[]): number[] {
    const starts: number[] = [];
    lines.forEach((line, i) => {
        if (isCellMarker(line)) {
            starts.push(i);
        }
    });
    return starts;
}

/** The cells to probe, top to bottom, for "Probe File From Top": one line per cell. */
export function cellsFromTop(lines: readonly string[]): number[] {
    const starts = cellStarts(lines);
    const hasCodeAbove = lines.slice(0, starts[0] ?? lines.length).some((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    if (starts.length === 0) {
        return [0];
    }
    const cells = hasCodeAbove ? [0, ...starts] : starts;
    // Markdown cells hold no code to run.
    return cells.filter((s) => !/\[markdown\]/i.test(lines[s] ?? ''));
}
