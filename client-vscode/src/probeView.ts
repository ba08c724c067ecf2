/**
 * The "torchplace Probe" view: the last probed cell's variables (device,
 * dtype, shape), its host/device transfers and its error, each item jumping
 * to its line.
 */
import * as vscode from 'vscode';
import { ProbeSummary } from './probeResult';

type Node = { kind: 'group'; label: string; children: Leaf[] } | Leaf;
type Leaf = { kind: 'leaf'; label: string; description?: string; line?: number; icon: string; tooltip?: string };

export class ProbeView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<Node | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    private summary: ProbeSummary | undefined;
    private document: vscode.Uri | undefined;
    private readonly view: vscode.TreeView<Node>;

    constructor() {
        this.view = vscode.window.createTreeView('torchplace.probeResults', { treeDataProvider: this, showCollapseAll: false });
    }

    show(document: vscode.Uri, summary: ProbeSummary): void {
        this.document = document;
        this.summary = summary;
        this.view.message = summary.ran
            ? `${summary.status} · ${summary.device ?? 'unknown device'} · ${vscode.workspace.asRelativePath(document)}`
            : `Not run: ${summary.status}`;
        this.changed.fire(undefined);
    }

    /** Brings the view into sight without taking the focus from the editor. */
    async reveal(): Promise<void> {
        const firstNode = this.getChildren()[0];
        if (firstNode) {
            await this.view.reveal(firstNode, { focus: false, select: false, expand: true }).then(undefined, () => undefined);
        }
    }

    getChildren(element?: Node): Node[] {
        if (element) {
            return element.kind === 'group' ? element.children : [];
        }
        const s = this.summary;
        if (!s) {
            return [];
        }
        const groups: Node[] = [];
        if (s.errors.length > 0) {
            groups.push({
                kind: 'group',
                label: 'Error',
                children: s.errors.map((e) => ({
                    kind: 'leaf',
                    label: e.message,
                    line: e.line,
                    icon: e.context ? 'lightbulb' : 'error',
                    tooltip: e.message,
                })),
            });
        }
        groups.push({
            kind: 'group',
            label: `Variables (${s.variables.length})`,
            children: s.variables.map((v) => ({
                kind: 'leaf',
                label: v.name,
                description: v.description,
                line: v.line,
                icon: v.onAccelerator ? 'circuit-board' : 'symbol-variable',
            })),
        });
        groups.push({
            kind: 'group',
            label: `Transfers (${s.transfers.length})`,
            children: s.transfers.map((t) => ({
                kind: 'leaf',
                label: t.line !== undefined ? `line ${t.line + 1}` : 'transfer',
                description: t.text,
                line: t.line,
                icon: 'arrow-swap',
            })),
        });
        if (s.notes.length > 0) {
            groups.push({ kind: 'group', label: 'Notes', children: s.notes.map((n) => ({ kind: 'leaf', label: n, icon: 'info', tooltip: n })) });
        }
        return groups;
    }

    getParent(): undefined {
        return undefined;
    }

    getTreeItem(element: Node): vscode.TreeItem {
        if (element.kind === 'group') {
            return new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.Expanded);
        }
        const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.None);
        item.description = element.description;
        item.tooltip = element.tooltip ?? (element.description ? `${element.label}: ${element.description}` : element.label);
        item.iconPath = new vscode.ThemeIcon(element.icon);
        if (this.document && element.line !== undefined) {
            const position = new vscode.Position(element.line, 0);
            item.command = {
                command: 'vscode.open',
                title: 'Go to line',
                arguments: [this.document, { selection: new vscode.Range(position, position) }],
            };
        }
        return item;
    }

    dispose(): void {
        this.view.dispose();
        this.changed.dispose();
    }
}
