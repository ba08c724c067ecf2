/**
 * "Probe Current Cell" and "Probe File From Top": ask the server to run cells
 * under the probe (`torchplace.probeCell` with [documentUri, line]), show
 * progress, and hand each result to the probe view and the status item. The
 * code lens "Probe cell" goes through the same path via `middleware`.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, Middleware } from 'vscode-languageclient/node';
import { cellsFromTop } from './cells';
import { Notifier } from './notifications';
import { parseProbeResult, ProbeSummary } from './probeResult';
import { ProbeHints } from './probeHints';
import { ProbeView } from './probeView';
import { ServerClient } from './serverClient';
import { StatusItems } from './statusItems';

export const PROBE_CELL_COMMAND = 'torchplace.probeCell';
export const CANCEL_PROBE_COMMAND = 'torchplace.cancelProbe';

/** A place to probe: the document (or notebook cell) URI and a 0-based line in it. */
export interface ProbeTarget {
    uri: vscode.Uri;
    line: number;
}

export class Prober {
    private running = false;

    constructor(
        private readonly server: () => ServerClient | undefined,
        private readonly view: ProbeView,
        private readonly hints: ProbeHints,
        private readonly status: StatusItems,
        private readonly notifier: Notifier,
    ) {}

    /** Lets the code lens's `torchplace.probeCell` show progress and results too. */
    middleware(): Middleware {
        return {
            executeCommand: async (command, args, next) => {
                if (command !== PROBE_CELL_COMMAND || typeof args[0] !== 'string' || typeof args[1] !== 'number') {
                    return next(command, args);
                }
                const target = { uri: vscode.Uri.parse(args[0]), line: args[1] };
                return this.withUi(target, () => Promise.resolve(next(command, args)));
            },
        };
    }

    async probeCurrentCell(arg?: unknown): Promise<void> {
        const target = currentTarget(arg);
        if (!target) {
            await this.notifier.notify('warning', 'Open a Python file or notebook and put the cursor in a cell to probe it.', [], true);
            return;
        }
        await this.probe(target);
    }

    async probeFileFromTop(): Promise<void> {
        const targets = targetsFromTop();
        if (!targets) {
            await this.notifier.notify('warning', 'Open a Python file or notebook to probe it from the top.', [], true);
            return;
        }
        let first = true;
        for (const target of targets) {
            // The first probe restarts the kernel: "from top" means a clean state.
            const summary = await this.probe(target, first);
            first = false;
            if (!summary || !summary.ran || summary.errors.length > 0) {
                break; // like "Run All": stop at the first cell that fails
            }
        }
    }

    private async probe(target: ProbeTarget, fromTop = false): Promise<ProbeSummary | undefined> {
        const client = this.server()?.languageClient;
        if (!client) {
            const choice = await this.notifier.notify(
                'error',
                'The torchplace server is not running, so the cell cannot be probed. Run "torchplace: Restart Server" or see the logs.',
                ['Restart Server', 'Show Logs'],
                true,
            );
            if (choice) {
                await vscode.commands.executeCommand(choice === 'Show Logs' ? 'torchplace.showLogs' : 'torchplace.restartServer');
            }
            return undefined;
        }
        const args: unknown[] = [target.uri.toString(), target.line];
        if (fromTop) {
            args.push({ fromTop: true });
        }
        // No cancellation token on the request: Cancel goes through torchplace.cancelProbe, which
        // interrupts the kernel, and the server still answers (status "cancelled", lines so far).
        return this.withUi(target, () => client.sendRequest(ExecuteCommandRequest.type, { command: PROBE_CELL_COMMAND, arguments: args }));
    }

    private cancel(target: ProbeTarget): void {
        const client = this.server()?.languageClient;
        client
            ?.sendRequest(ExecuteCommandRequest.type, { command: CANCEL_PROBE_COMMAND, arguments: [target.uri.toString()] })
            .then(undefined, () => undefined);
    }

    private async withUi(target: ProbeTarget, run: () => Promise<unknown>): Promise<ProbeSummary | undefined> {
        if (this.running) {
            await this.notifier.notify('info', 'A probe is already running; wait for it to finish.', [], true);
            return undefined;
        }
        this.running = true;
        this.status.showProbe(undefined, true);
        try {
            const raw = await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title: `torchplace: probing ${describeTarget(target)}…`, cancellable: true },
                (_progress, token) => {
                    // Cancel interrupts the kernel at once, whichever path started the probe (the code
                    // lens's command carries no cancellation token of its own).
                    const cancelled = token.onCancellationRequested(() => this.cancel(target));
                    return run().finally(() => cancelled.dispose());
                },
            );
            const summary = parseProbeResult(raw);
            this.view.show(target.uri, summary);
            this.hints.show(target.uri, summary.hints, summary.cellLines);
            this.status.showProbe(summary.device);
            if (!summary.ran) {
                // The server explains in its own message why it did not run.
                return summary;
            }
            await this.view.reveal();
            await revealTarget(target); // the panel must not cover the probed cell
            return summary;
        } catch (error) {
            this.status.showProbe(undefined);
            const message = error instanceof Error ? error.message : String(error);
            await this.notifier.notify('error', `The probe failed: ${message}`, [], true);
            return undefined;
        } finally {
            this.running = false;
        }
    }
}

/** Scrolls the probed line (or notebook cell) into view if the panel or anything else hid it. */
async function revealTarget(target: ProbeTarget): Promise<void> {
    const key = target.uri.toString();
    if (target.uri.scheme === 'vscode-notebook-cell') {
        for (const editor of vscode.window.visibleNotebookEditors) {
            const index = editor.notebook.getCells().findIndex((c) => c.document.uri.toString() === key);
            if (index >= 0) {
                editor.revealRange(new vscode.NotebookRange(index, index + 1), vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
            }
        }
        return;
    }
    for (const editor of vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key)) {
        const position = new vscode.Position(Math.min(target.line, editor.document.lineCount - 1), 0);
        editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
}

/** `train.py:12`, or `notebook.ipynb, cell 3` for a notebook cell. */
function describeTarget(target: ProbeTarget): string {
    const name = target.uri.path.split('/').pop() ?? target.uri.toString();
    if (target.uri.scheme === 'vscode-notebook-cell') {
        const notebook = vscode.workspace.notebookDocuments.find((nb) => nb.getCells().some((c) => c.document.uri.toString() === target.uri.toString()));
        const index = notebook?.getCells().findIndex((c) => c.document.uri.toString() === target.uri.toString());
        return index !== undefined && index >= 0 ? `${name}, cell ${index + 1}` : name;
    }
    return `${name}:${target.line + 1}`;
}

function isNotebookCell(value: unknown): value is vscode.NotebookCell {
    return typeof value === 'object' && value !== null && 'document' in value && 'notebook' in value;
}

/** The cell under the cursor, or the notebook cell passed by a cell toolbar button. */
function currentTarget(arg: unknown): ProbeTarget | undefined {
    if (isNotebookCell(arg)) {
        return { uri: arg.document.uri, line: 0 };
    }
    if (arg instanceof vscode.Uri) {
        return { uri: arg, line: 0 };
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.languageId === 'python') {
        // The server finds the cell around this line (`# %%` cells or a notebook cell).
        return { uri: editor.document.uri, line: editor.selection.active.line };
    }
    const notebook = vscode.window.activeNotebookEditor;
    if (notebook) {
        const index = notebook.selections[0]?.start ?? 0;
        const cell = notebook.notebook.cellAt(index);
        if (cell.kind === vscode.NotebookCellKind.Code) {
            return { uri: cell.document.uri, line: 0 };
        }
    }
    return undefined;
}

function targetsFromTop(): ProbeTarget[] | undefined {
    const notebook = vscode.window.activeNotebookEditor;
    const editor = vscode.window.activeTextEditor;
    if (notebook && (!editor || editor.document.uri.scheme === 'vscode-notebook-cell')) {
        return notebook.notebook
            .getCells()
            .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.getText().trim() !== '')
            .map((c) => ({ uri: c.document.uri, line: 0 }));
    }
    if (editor && editor.document.languageId === 'python') {
        const lines = editor.document.getText().split(/\r?\n/);
        return cellsFromTop(lines).map((line) => ({ uri: editor.document.uri, line }));
    }
    return undefined;
}
