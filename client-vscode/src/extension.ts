/**
 * Entry point: wires the log, the server client, the status items, the probe
 * view, the rule pages and the commands, and follows settings, interpreter and
 * extension changes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixAll } from './fixAll';
import { NotebookBadges } from './notebookBadges';
import { Notifier } from './notifications';
import { Prober } from './probeCommands';
import { ProbeHints } from './probeHints';
import { ProbeView } from './probeView';
import { onInterpreterChanged, otherParserActive } from './pythonExtensions';
import { registerRuleDocs } from './ruleDocs';
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
    context.subscriptions.push(log, status, view, hints, client, client.onDidChangeStatus((s) => status.showServer(s)), new NotebookBadges());
    registerRuleDocs(context);

    context.subscriptions.push(
        vscode.commands.registerCommand('torchplace.probeCurrentCell', (arg?: unknown) => prober.probeCurrentCell(arg)),
        vscode.commands.registerCommand('torchplace.probeFileFromTop', () => prober.probeFileFromTop()),
        vscode.commands.registerCommand('torchplace.fixAll', () => fixAll(notifier)),
        vscode.commands.registerCommand('torchplace.restartServer', () => client.restart()),
        vscode.commands.registerCommand('torchplace.showLogs', () => log.show()),
        vscode.commands.registerCommand('torchplace.openWalkthroughExample', () => openExample(context.extensionPath)),
    );

    let settings = settingsFor().settings;
    let parser = otherParserActive();
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(async (event) => {
            if (!event.affectsConfiguration(SECTION) && !event.affectsConfiguration('python.languageServer')) {
                return;
            }
            const { settings: next, problems } = settingsFor(vscode.workspace.workspaceFolders?.[0]?.uri);
            client.reportSettingProblems(problems); // on every change, without a reload
            const effect = parser !== otherParserActive() ? 'reconfigure' : changeEffect(settings, next);
            settings = next;
            parser = otherParserActive();
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
        vscode.extensions.onDidChange(async () => {
            if (parser !== otherParserActive()) {
                parser = otherParserActive();
                log.info(`Pylance or Pyright ${parser ? 'is' : 'is no longer'} active: syntax errors ${parser ? 'left to it' : 'reported'} unless torchplace.reportSyntaxErrors says otherwise`);
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

/** The walkthrough's example, as an unsaved document: nothing is written to the workspace. */
async function openExample(extensionRoot: string): Promise<void> {
    const file = vscode.Uri.file(path.join(extensionRoot, 'client-vscode', 'walkthrough', 'example.py'));
    const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const document = await vscode.workspace.openTextDocument({ language: 'python', content });
    await vscode.window.showTextDocument(document);
}

export async function deactivate(): Promise<void> {
    await server?.stop();
    server = undefined;
}
