/**
 * Two language status items for Python files: the server's state (with the
 * interpreter) and the device the probe last ran on ("no kernel" before).
 */
import * as vscode from 'vscode';
import { ServerState, ServerStatus } from './serverClient';

const SELECTOR: vscode.DocumentSelector = [
    { language: 'python' },
    { notebookType: 'jupyter-notebook', language: 'python' },
];

const LOGS = { command: 'torchplace.showLogs', title: 'Logs' };
const RESTART = { command: 'torchplace.restartServer', title: 'Restart' };

/** How the server item looks in each state: text, severity and its link. */
const SERVER_LOOKS: Record<ServerState, { text: string; severity: vscode.LanguageStatusSeverity; command: vscode.Command }> = {
    running: { text: '$(check) torchplace', severity: vscode.LanguageStatusSeverity.Information, command: LOGS },
    starting: { text: 'torchplace: starting', severity: vscode.LanguageStatusSeverity.Information, command: LOGS },
    failed: { text: '$(error) torchplace: not running', severity: vscode.LanguageStatusSeverity.Error, command: RESTART },
    disabled: {
        text: 'torchplace: disabled',
        severity: vscode.LanguageStatusSeverity.Information,
        command: { command: 'workbench.action.openSettings', title: 'Settings', arguments: ['torchplace.enable'] },
    },
    stopped: { text: 'torchplace: stopped', severity: vscode.LanguageStatusSeverity.Warning, command: { ...RESTART, title: 'Start' } },
};

const MAX_DETAIL = 60;

function shorten(text: string): string {
    return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/** `.venv/bin/python` for `/home/me/projects/x/.venv/bin/python`. */
function shortPython(command: string): string {
    if (!command) {
        return '';
    }
    const parts = command.split(' ')[0].split(/[\\/]/);
    return shorten(parts.slice(-3).join('/'));
}

export class StatusItems implements vscode.Disposable {
    private readonly server = vscode.languages.createLanguageStatusItem('torchplace.server', SELECTOR);
    private readonly probe = vscode.languages.createLanguageStatusItem('torchplace.probe', SELECTOR);

    constructor() {
        this.server.name = 'torchplace server';
        this.probe.name = 'torchplace probe';
        this.showServer({ state: 'stopped', detail: 'not started' });
        this.showProbe(undefined);
    }

    showServer(status: ServerStatus): void {
        const look = SERVER_LOOKS[status.state];
        const python = status.interpreter?.command.join(' ') ?? '';
        this.server.busy = status.state === 'starting';
        this.server.text = look.text;
        this.server.severity = look.severity;
        // The hover has the width of the status bar item's neighbourhood: a short detail, the
        // long text (the interpreter's full path, a failure's explanation) in the link's tooltip.
        this.server.command = { ...look.command, tooltip: [status.detail, python && `Python: ${python}`].filter(Boolean).join('\n') };
        this.server.detail = status.state === 'running' ? [status.detail, shortPython(python)].filter(Boolean).join(' · ') : shorten(status.detail);
    }

    /** `device` as the probe reported it; undefined before any probe ran. */
    showProbe(device: string | undefined, busy = false): void {
        this.probe.busy = busy;
        this.probe.text = `$(beaker) ${busy ? 'probing…' : device ?? 'no kernel'}`;
        this.probe.detail = device ? 'device of the last probe' : 'no probe has run yet';
        this.probe.command = { command: 'torchplace.probeCurrentCell', title: 'Probe cell' };
    }

    dispose(): void {
        this.server.dispose();
        this.probe.dispose();
    }
}
