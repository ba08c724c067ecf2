/**
 * Notifications gated by `torchplace.showNotifications`, every one also
 * written to the log. Problems that stop the server are shown whatever the
 * setting says: a linter that silently does nothing is the worst outcome.
 */
import * as vscode from 'vscode';
import { NotificationLevel } from './settings';

export type Level = 'error' | 'warning' | 'info';

const SHOWN_AT: Record<NotificationLevel, Level[]> = {
    off: [],
    onError: ['error'],
    onWarning: ['error', 'warning'],
    always: ['error', 'warning', 'info'],
};

export class Notifier {
    constructor(
        private readonly log: vscode.LogOutputChannel,
        private readonly level: () => NotificationLevel,
    ) {}

    /**
     * Logs `message` and shows it when the setting allows (or `always` is
     * true); resolves to the action the user picked.
     */
    async notify(level: Level, message: string, actions: string[] = [], always = false): Promise<string | undefined> {
        this.log[level === 'warning' ? 'warn' : level](message);
        if (!always && !SHOWN_AT[this.level()].includes(level)) {
            return undefined;
        }
        const show =
            level === 'error'
                ? vscode.window.showErrorMessage
                : level === 'warning'
                  ? vscode.window.showWarningMessage
                  : vscode.window.showInformationMessage;
        return show(`torchplace: ${message}`, ...actions);
    }
}
