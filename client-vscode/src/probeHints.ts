/**
 * The probe's inline hints: after each probed line, what it produced
 * (`→ cuda:0 float32 [8, 16]  host→device 512 B`), and the error on its line.
 * They describe one run, so they go away as soon as the document is edited.
 */
import * as vscode from 'vscode';
import { LineHint } from './probeResult';

export class ProbeHints implements vscode.Disposable {
    private readonly info = vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor('editorInlayHint.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
        isWholeLine: true,
    });
    private readonly error = vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor('editorError.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
        isWholeLine: true,
    });
    private readonly byDocument = new Map<string, LineHint[]>();
    private readonly subscriptions: vscode.Disposable[];

    constructor() {
        this.subscriptions = [
            vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.apply(e))),
            vscode.workspace.onDidChangeTextDocument((event) => {
                if (event.contentChanges.length > 0) {
                    this.clear(event.document.uri);
                }
            }),
            vscode.workspace.onDidCloseTextDocument((document) => this.byDocument.delete(document.uri.toString())),
        ];
    }

    /**
     * Shows a probe's hints. With `cellLines`, only that cell's old hints are
     * replaced, so probing cell after cell builds up the whole file.
     */
    show(uri: vscode.Uri, hints: LineHint[], cellLines?: { first: number; last: number }): void {
        const kept = cellLines ? (this.byDocument.get(uri.toString()) ?? []).filter((h) => h.line < cellLines.first || h.line > cellLines.last) : [];
        this.byDocument.set(uri.toString(), [...kept, ...hints]);
        vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri.toString()).forEach((e) => this.apply(e));
    }

    clear(uri: vscode.Uri): void {
        if (this.byDocument.delete(uri.toString())) {
            vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri.toString()).forEach((e) => this.apply(e));
        }
    }

    private apply(editor: vscode.TextEditor): void {
        const hints = this.byDocument.get(editor.document.uri.toString()) ?? [];
        const options = (wanted: boolean): vscode.DecorationOptions[] =>
            hints
                .filter((h) => h.isError === wanted && h.line < editor.document.lineCount)
                .map((h) => ({
                    range: editor.document.lineAt(h.line).range,
                    renderOptions: { after: { contentText: h.text } },
                    hoverMessage: new vscode.MarkdownString().appendText(`torchplace probe: ${h.text}`),
                }));
        editor.setDecorations(this.info, options(false));
        editor.setDecorations(this.error, options(true));
    }

    dispose(): void {
        this.subscriptions.forEach((s) => s.dispose());
        this.info.dispose();
        this.error.dispose();
    }
}
