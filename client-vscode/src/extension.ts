/**
 * Entry point: wires the log, the server client, the status items, the probe
 * view and the commands, and follows settings and interpreter changes.
 */
import * as vscode from 'vscode';
import { fixAll } from './fixAll';
import { Notifier } from './notifications';
import { Prober } from './probeCommands';
import { ProbeHints } from './probeHints';
import { ProbeView } from './probeView';
import { onInterpreterChanged } from './pythonExtensions';
import { ServerClient, settingsFor } from './serverClient';
import { changeEffect, SECTION } from './settings';
import { StatusItems } from './statusItems';

let server: ServerClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const log = vscode.window.createOutputChannel('torchplace', { log: true });
    const notifier = new Notifier(log, () => settingsFor().settings.showNotifications);
    const status = new StatusItems();
    const view = new ProbeView();
    const hints = new ProbeHints();
    const prober = new Prober(() => server, view, hints, status, notifier);
    server = new ServerClient(context.extensionPath, log, notifier, prober.middleware());
    const client = server;
    context.subscriptions.push(log, status, view, hints, client, client.onDidChangeStatus((s) => status.showServer(s)));

    context.subscriptions.push(
        vscode.commands.registerCommand('torchplace.probeCurrentCell', (arg?: unknown) => prober.probeCurrentCell(arg)),
        vscode.commands.registerCommand('torchplace.probeFileFromTop', () => prober.probeFileFromTop()),
        vscode.commands.registerCommand('torchplace.fixAll', () => fixAll(notifier)),
        vscode.commands.registerCommand('torchplace.restartServer', () => client.restart()),
        vscode.commands.registerCommand('torchplace.showLogs', () => log.show()),
    );

    let settings = settingsFor().settings;
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(async (event) => {
            if (!event.affectsConfiguration(SECTION)) {
                return;
            }
            const next = settingsFor().settings;
            const effect = changeEffect(settings, next);
            settings = next;
            log.info(`settings changed: ${effect}`);
            if (effect === 'restart' || effect === 'start') {
                await client.restart();
            } else if (effect === 'stop') {
                await client.stop();
                status.showServer({ state: 'disabled', detail: 'disabled by torchplace.enable' });
            } else if (effect === 'reconfigure') {
                await client.reconfigure();
            }
        }),
        onInterpreterChanged(() => {
            if (settingsFor().settings.interpreter.length === 0) {
                log.info('the selected Python interpreter changed: restarting the server');
                void client.restart();
            }
        }),
    );

    await client.restart();
}

export async function deactivate(): Promise<void> {
    await server?.stop();
    server = undefined;
}
