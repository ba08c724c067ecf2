/**
 * "Fix All Device Issues": asks the server for its `source.fixAll.torchplace`
 * action on the active file (or the whole active notebook) and applies it.
 */
import * as vscode from 'vscode';
import { Notifier } from './notifications';

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('torchplace');

/** The document to ask: the active editor's, or a notebook's first code cell (the action covers every cell). */
function documentToFix(): vscode.TextDocument | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.languageId === 'python') {
        return editor.document;
    }
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    return notebook?.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code)?.document;
}

export async function fixAll(notifier: Notifier): Promise<number> {
    const document = documentToFix();
    if (!document) {
        await notifier.notify('warning', 'Open a Python file or notebook to fix it.', [], true);
        return 0;
    }
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const actions =
        (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, whole, FIX_ALL_KIND.value, 10)) ??
        [];
    let applied = 0;
    for (const action of actions.filter((a) => a.kind && FIX_ALL_KIND.contains(a.kind))) {
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
