/**
 * A problem badge on notebooks in the Explorer and on their tabs: VS Code
 * decorates files by the problems reported for their own URI, and a notebook's
 * problems are reported for its cells (`vscode-notebook-cell:` URIs), so a
 * notebook with an error in cell 13 looked clean.  This counts torchplace's
 * problems per notebook and decorates its file like VS Code decorates others.
 */
import * as vscode from 'vscode';

const SOURCE = 'torchplace';

export class NotebookBadges implements vscode.FileDecorationProvider, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
    private readonly subscriptions: vscode.Disposable[] = [];
    private decorated = new Set<string>();

    readonly onDidChangeFileDecorations = this.changed.event;

    constructor() {
        this.subscriptions.push(
            vscode.window.registerFileDecorationProvider(this),
            vscode.languages.onDidChangeDiagnostics((event) => {
                if (event.uris.some((uri) => uri.scheme === 'vscode-notebook-cell')) {
                    this.refresh();
                }
            }),
        );
    }

    private refresh(): void {
        const now = new Set(vscode.workspace.notebookDocuments.filter((nb) => this.counts(nb.uri).total > 0).map((nb) => nb.uri.toString()));
        const touched = [...new Set([...now, ...this.decorated])].map((u) => vscode.Uri.parse(u));
        this.decorated = now;
        if (touched.length > 0) {
            this.changed.fire(touched);
        }
    }

    private counts(uri: vscode.Uri): { errors: number; warnings: number; total: number } {
        const notebook = vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === uri.toString());
        let errors = 0;
        let warnings = 0;
        for (const cell of notebook?.getCells() ?? []) {
            for (const d of vscode.languages.getDiagnostics(cell.document.uri)) {
                if (d.source !== SOURCE) {
                    continue;
                }
                if (d.severity === vscode.DiagnosticSeverity.Error) {
                    errors++;
                } else if (d.severity === vscode.DiagnosticSeverity.Warning) {
                    warnings++;
                }
            }
        }
        return { errors, warnings, total: errors + warnings };
    }

    provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
        if (!uri.path.endsWith('.ipynb')) {
            return undefined;
        }
        const { errors, warnings, total } = this.counts(uri);
        if (total === 0) {
            return undefined;
        }
        const parts = [errors ? `${errors} error${errors > 1 ? 's' : ''}` : '', warnings ? `${warnings} warning${warnings > 1 ? 's' : ''}` : ''];
        return {
            badge: total < 10 ? String(total) : '9+', // as VS Code's own problem badges
            tooltip: `torchplace: ${parts.filter(Boolean).join(', ')} in this notebook`,
            color: new vscode.ThemeColor(errors ? 'list.errorForeground' : 'list.warningForeground'),
            propagate: false,
        };
    }

    dispose(): void {
        this.subscriptions.forEach((s) => s.dispose());
        this.changed.dispose();
    }
}
