/**
 * Rule documentation inside VS Code: the rule pages (docs/rules/TPxxx.html,
 * generated from the rule classes and shipped in the extension) shown rendered
 * in a read-only webview editor, never as HTML source.
 *
 * The editor opens for the shipped pages and for the server's copies (the
 * `codeDescription` link of each diagnostic, under ~/.cache/torchplace/rule-docs/),
 * so clicking a rule code in Problems or in a hover shows the page; "Show
 * documentation for TPxxx" (a server command) is answered here with the shipped page.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const RULE_DOCS_VIEW = 'torchplace.ruleDocs';
export const SHOW_RULE_DOCS_COMMAND = 'torchplace.showRuleDocumentation';
const OPEN_PAGE_COMMAND = 'torchplace.openRulePage';

/** Where the pages are: in the .vsix, or in a repository checkout (development). */
export function rulePagesDir(extensionRoot: string): string {
    const shipped = path.join(extensionRoot, 'client-vscode', 'out', 'rules');
    return fs.existsSync(shipped) ? shipped : path.join(extensionRoot, 'docs', 'rules');
}

/** The page's HTML made fit for a webview: its stylesheet inlined, links to other pages as commands. */
export function webviewHtml(page: string, folder: string): string {
    let css = '';
    try {
        css = fs.readFileSync(path.join(folder, 'style.css'), 'utf8');
    } catch {
        // no stylesheet: the page still reads
    }
    return page
        .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`)
        .replace(/<link rel="stylesheet" href="style\.css">/, `<style>${css}</style>`)
        .replace(/href="([A-Za-z0-9_-]+\.html)"/g, (_whole, name: string) => {
            const args = encodeURIComponent(JSON.stringify([path.join(folder, name)]));
            return `href="command:${OPEN_PAGE_COMMAND}?${args}"`;
        });
}

class RulePageProvider implements vscode.CustomReadonlyEditorProvider {
    openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
        return { uri, dispose: () => undefined };
    }

    resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
        panel.webview.options = { enableScripts: false, enableCommandUris: [OPEN_PAGE_COMMAND], localResourceRoots: [] };
        let page: string;
        try {
            page = fs.readFileSync(document.uri.fsPath, 'utf8');
        } catch (error) {
            page = `<p>Cannot read ${document.uri.fsPath}: ${String(error)}</p>`;
        }
        const title = /<title>([^<]*)<\/title>/.exec(page)?.[1];
        if (title) {
            panel.title = title.replace(/ — torchplace$/, '');
        }
        panel.webview.html = webviewHtml(page, path.dirname(document.uri.fsPath));
    }
}

async function openPage(file: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), RULE_DOCS_VIEW, {
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
    });
}

/** Shows the page of rule `code` (e.g. "TP103"), or the index for no code. */
export async function showRuleDocs(extensionRoot: string, code?: unknown): Promise<boolean> {
    const folder = rulePagesDir(extensionRoot);
    const name = typeof code === 'string' && /^[A-Z]+\d+$/.test(code) ? `${code}.html` : 'index.html';
    const file = path.join(folder, name);
    if (!fs.existsSync(file)) {
        return false;
    }
    await openPage(file);
    return true;
}

export function registerRuleDocs(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
        vscode.window.registerCustomEditorProvider(RULE_DOCS_VIEW, new RulePageProvider(), {
            supportsMultipleEditorsPerDocument: true,
            webviewOptions: { enableFindWidget: true },
        }),
        vscode.commands.registerCommand(OPEN_PAGE_COMMAND, (file: unknown) => (typeof file === 'string' ? openPage(file) : undefined)),
        vscode.commands.registerCommand('torchplace.showRules', () => showRuleDocs(context.extensionPath)),
    );
}
