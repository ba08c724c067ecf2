/**
 * The extension's settings as VS Code holds them for a resource, read and
 * validated by `settings.ts` (which knows nothing of VS Code).
 */
import * as vscode from 'vscode';
import { readSettings, SECTION, SettingProblem, TorchplaceSettings } from './settings';

/** Settings a user set explicitly, as opposed to their defaults (which depend on other extensions). */
const EXPLICIT_ONLY = new Set(['reportSyntaxErrors']);

/** Settings for a resource (or the window), read and validated. */
export function settingsFor(scope?: vscode.ConfigurationScope): { settings: TorchplaceSettings; problems: SettingProblem[] } {
    const config = vscode.workspace.getConfiguration(SECTION, scope);
    const folder =
        scope instanceof vscode.Uri ? vscode.workspace.getWorkspaceFolder(scope) : vscode.workspace.workspaceFolders?.[0];
    const get = (key: string): unknown => {
        if (!EXPLICIT_ONLY.has(key)) {
            return config.get(key);
        }
        const set = config.inspect(key);
        return set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
    };
    return readSettings(get, {
        workspaceFolder: folder?.uri.fsPath,
        userHome: process.env.HOME ?? process.env.USERPROFILE,
        env: process.env,
    });
}
