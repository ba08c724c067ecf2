/**
 * "Fix All Device Issues": asks the server for its `source.fixAll.torchplace`
 * action on the active file, or `notebook.source.fixAll.torchplace` for the
 * whole active notebook (asked of its first code cell), and applies it.
 */
import * as vscode from 'vscode';
import { Notifier } from './notifications';

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('torchplace');
export const NOTEBOOK_FIX_ALL_KIND = vscode.CodeActionKind.Notebook.append('source.fixAll.torchplace');

/** The document to ask and the kind: the active file's, or a notebook's first code cell (the action covers every cell). */
function documentToFix(): { document: vscode.TextDocument; kind: vscode.CodeActionKind } | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.languageId === 'python' && editor.document.uri.scheme !== 'vscode-notebook-cell') {
        return { document: editor.document, kind: FIX_ALL_KIND };
    }
    const notebook = vscode.window.activeNotebookEditor;
    if (!notebook) {
        return undefined;
    }
    // Any code cell stands for the notebook, but VS Code answers code-action requests only for
    // cells it has a text model for: the selected one or one on screen (not one scrolled far away).
    const cells = notebook.notebook.getCells();
    const onScreen = notebook.visibleRanges.flatMap((range) => cells.slice(range.start, range.end));
    const cell = [cells[notebook.selection?.start ?? 0], ...onScreen, ...cells].find((c) => c?.kind === vscode.NotebookCellKind.Code);
    return cell ? { document: cell.document, kind: NOTEBOOK_FIX_ALL_KIND } : undefined;
}

export async function fixAll(notifier: Notifier): Promise<number> {
    const target = documentToFix();
    if (!target) {
        await notifier.notify('warning', 'Open a Python file or notebook to fix it.', [], true);
        return 0;
    }
    const { document, kind } = target;
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const actions =
        (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, whole, kind.value, 10)) ??
        [];
    let applied = 0;
    for (const action of actions.filter((a) => a.kind && kind.contains(a.kind))) {
        if (action.edit && action.edit.size > 0 && (await vscode.workspace.applyEdit(action.edit))) {
            applied++;
        }
        if (action.command) {
            await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
            applied++;
        }
    }
    if (applied === 0) {
        await notifier.notify('info', 'No device issues with a safe fix in this document.');
    }
    return applied;
}
