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
        const interpreter = status.interpreter ? `Python: ${status.interpreter.command.join(' ')}` : '';
        this.server.busy = status.state === 'starting';
        this.server.text = look.text;
        this.server.severity = look.severity;
        this.server.command = look.command;
        this.server.detail = status.state === 'running' ? [status.detail, interpreter].filter(Boolean).join(' · ') : status.detail;
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
