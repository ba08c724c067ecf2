/**
 * Two language status items for Python files: the server's state (with the
 * interpreter) and the device the probe last ran on ("no kernel" before).
 */
import * as vscode from 'vscode';
import { ServerStatus } from './serverClient';

const SELECTOR: vscode.DocumentSelector = [
    { language: 'python' },
    { notebookType: 'jupyter-notebook', language: 'python' },
];

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
        const item = this.server;
        const interpreter = status.interpreter ? `Python: ${status.interpreter.command.join(' ')}` : '';
        item.busy = status.state === 'starting';
        switch (status.state) {
            case 'running':
                item.text = '$(check) torchplace';
                item.severity = vscode.LanguageStatusSeverity.Information;
                item.detail = [status.detail, interpreter].filter(Boolean).join(' · ');
                item.command = { command: 'torchplace.showLogs', title: 'Logs' };
                break;
            case 'starting':
                item.text = 'torchplace: starting';
                item.severity = vscode.LanguageStatusSeverity.Information;
                item.detail = status.detail;
                item.command = { command: 'torchplace.showLogs', title: 'Logs' };
                break;
            case 'failed':
                item.text = '$(error) torchplace: not running';
                item.severity = vscode.LanguageStatusSeverity.Error;
                item.detail = status.detail;
                item.command = { command: 'torchplace.restartServer', title: 'Restart' };
                break;
            case 'disabled':
                item.text = 'torchplace: disabled';
                item.severity = vscode.LanguageStatusSeverity.Information;
                item.detail = status.detail;
                item.command = { command: 'workbench.action.openSettings', title: 'Settings', arguments: ['torchplace.enable'] };
                break;
            default:
                item.text = 'torchplace: stopped';
                item.severity = vscode.LanguageStatusSeverity.Warning;
                item.detail = status.detail;
                item.command = { command: 'torchplace.restartServer', title: 'Start' };
        }
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
