/**
 * The extension in real VS Code (code-server) driven like a person would:
 * squiggles and the Problems count, the quick-fix from the lightbulb, Fix
 * All, the probe on a `# %%` cell, notebooks (findings kept while cells scroll,
 * badge, Fix All), typing through a syntax error, a module changed on disk,
 * hover and rule pages, settings, and a server that cannot start or crashes.
 * Screenshots of each step go to test-artifacts/vscode/.
 *
 * Run by scripts/test.d/50-vscode.sh, which sets CODE_SERVER_ENTRY, NODE24
 * and VSIX; see client-vscode/README.md.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { RunningCodeServer, startCodeServer } from './codeServer';
import { ARTIFACTS, MACHINE_SETTINGS, PYTHON_BIN, REPO, required, USER_SETTINGS } from './fixtures';
import { Workbench } from './workbench';


describe('torchplace in VS Code (code-server)', { timeout: 10 * 60 * 1000 }, () => {
    let server: RunningCodeServer;
    let browser: Browser;
    let wb: Workbench;
    const machine = (settings: Record<string, unknown>) => Workbench.replaceMachineSettings(server.machineSettingsFile, settings);

    before(async () => {
        fs.rmSync(ARTIFACTS, { recursive: true, force: true });
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        server = await startCodeServer({
            codeServerBin: required('CODE_SERVER_ENTRY'),
            nodeBin: required('NODE24'),
            vsix: required('VSIX'),
            workspaceSource: path.join(REPO, 'client-vscode', 'e2e', 'workspace'),
            pythonBinDir: PYTHON_BIN,
            userSettings: USER_SETTINGS,
            machineSettings: MACHINE_SETTINGS,
            logFile: path.join(ARTIFACTS, 'code-server.log'),
            keepLogsIn: path.join(ARTIFACTS, 'logs'),
        });
        browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        page.setDefaultTimeout(30000);
        wb = new Workbench(page, ARTIFACTS);
        await page.goto(server.url);
        await wb.waitForWorkbench();
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await server?.stop();
    });

    /** On failure, a screenshot of what was on screen. */
    async function step(name: string, body: () => Promise<void>): Promise<void> {
        try {
            await body();
        } catch (error) {
            await wb.screenshot(`FAILED-${name}`).catch(() => undefined);
            // A modal dialog left open would fail every later step: close it.
            await wb.page.locator('.monaco-dialog-box .monaco-button').first().click({ timeout: 1000 }).catch(() => undefined);
            await wb.page.keyboard.press('Escape').catch(() => undefined);
            throw error;
        }
    }

    it('shows the squiggle and counts the error in Problems', () =>
        step('squiggle', async () => {
            await wb.openFile('mixed_devices.py');
            const squiggle = wb.activeEditor().locator('.squiggly-error');
            await squiggle.first().waitFor({ timeout: 90000 }); // the first file starts the server
            const counts = await wb.waitForProblems((c) => c.errors === 1, 'one error in Problems');
            assert.equal(counts.errors, 1);
            await wb.page.keyboard.press('Control+Shift+M');
            const row = wb.page.locator('.markers-panel .monaco-list-row', { hasText: 'TP101' }).first();
            await row.waitFor();
            assert.match(await row.innerText(), /on the accelerator/);
            await wb.screenshot('squiggle-and-problems');
            await wb.page.keyboard.press('Control+Shift+M'); // close the panel again
        }));

    it('applies the TP201 quick-fix from the lightbulb', () =>
        step('quick-fix', async () => {
            await wb.openFile('discarded_to.py');
            await wb.activeEditor().locator('.squiggly-warning').first().waitFor();
            await wb.goToLine(6);
            const fix = await wb.codeAction('Assign the result');
            await wb.screenshot('lightbulb-menu');
            await fix.click();
            const text = await wb.waitForText((t) => t.includes('x = x.to(device)'), 'the fixed line');
            assert.doesNotMatch(text, /^x\.to\(device\)$/m);
            // Moving x also cures the TP101 on the next line: no squiggles left in this file.
            await wb.waitForNoSquiggles('after the quick-fix');
            await wb.screenshot('quick-fix-applied');
        }));

    it('fixes every discarded .to() with "Fix All Device Issues"', () =>
        step('fix-all', async () => {
            await wb.openFile('fix_all.py');
            await wb.activeEditor().locator('.squiggly-warning').first().waitFor();
            await wb.runCommand('torchplace: Fix All Device Issues');
            const text = await wb.waitForText(
                (t) => t.includes('inputs = inputs.to(device)') && t.includes('targets = targets.to(device)'),
                'both .to() calls assigned',
            );
            assert.doesNotMatch(text, /^inputs\.to\(device\)$/m);
            await wb.waitForNoSquiggles('after Fix All');
            await wb.screenshot('fix-all-applied');
        }));

    it('probes a # %% cell on a simulated GPU and shows where tensors live', () =>
        step('probe', async () => {
            await wb.openFile('probe_cells.py');
            await wb.activeEditor().locator('.squiggly-error').first().waitFor();
            await wb.goToLine(11);
            await wb.page.keyboard.press('Control+Alt+P'); // torchplace: Probe Current Cell
            // The probe view (in the panel) opens by itself and names the device it ran on.
            const view = wb.page.locator('.pane-body', { has: wb.page.locator('.message', { hasText: 'probe_cells.py' }) }).first();
            const message = view.locator('.message');
            await message.waitFor({ timeout: 120000 });
            const status = await message.innerText();
            await wb.screenshot('probe-result');
            assert.match(status, /^error · simulated GPU/, 'the cell raises the device mismatch on the simulated GPU');
            await view.locator('.monaco-list-row', { hasText: 'Expected all tensors to be on the same device' }).first().waitFor();
            // Inline hints after the probed lines: the batch moved to the (simulated) GPU.
            const deadline = Date.now() + 20000;
            let hints: string[] = [];
            while (Date.now() < deadline && !hints.some((h) => /cuda:0 float32 \[8, 16\]/.test(h))) {
                await wb.page.waitForTimeout(250);
                hints = await wb.afterLineTexts();
            }
            assert.ok(hints.some((h) => /cuda:0 float32 \[8, 16\]/.test(h)), `hints: ${JSON.stringify(hints)}`);
            assert.ok(hints.some((h) => /host→device/.test(h)), 'the .to(device) copy is shown');
            await view.locator('.monaco-list-row', { hasText: 'batch' }).first().waitFor();
            await wb.screenshot('probe-hints-and-view');
            // The language status ({} in the status bar) names the probe's device.
            await wb.page.locator('[id="status.languageStatus"]').first().click();
            const hover = wb.page.locator('.language-status-hover, .monaco-hover', { hasText: 'simulated GPU' }).first();
            await hover.waitFor();
            await wb.screenshot('language-status');
            await wb.page.keyboard.press('Escape');
        }));

    it('probes the file from the top, cell after cell', () =>
        step('probe-from-top', async () => {
            await wb.openFile('probe_cells.py');
            await wb.runCommand('torchplace: Probe File From Top');
            // One progress toast per cell; done when none is left.
            const probing = wb.page.locator('.notification-toast', { hasText: 'torchplace: probing' });
            await probing.first().waitFor({ timeout: 30000 });
            const idle = async () => (await probing.count()) === 0 && (await wb.page.waitForTimeout(2000), (await probing.count()) === 0);
            await wb.waitUntil(idle, 'the probes to finish', 120000);
            // The first cell's hints join the second's: weights was created on the device.
            const deadline = Date.now() + 120000;
            let hints: string[] = [];
            while (Date.now() < deadline && !hints.some((h) => /cuda:0 float32 \[16, 4\]/.test(h))) {
                await wb.page.waitForTimeout(500);
                hints = await wb.afterLineTexts();
            }
            assert.ok(hints.some((h) => /cuda:0 float32 \[16, 4\]/.test(h)), `hints: ${JSON.stringify(hints)}`);
            await wb.page.locator('.message', { hasText: /^error · simulated GPU/ }).first().waitFor({ timeout: 60000 });
            await wb.screenshot('probe-from-top');
        }));

    it('shows a finding in a notebook cell', () =>
        step('notebook', async () => {
            await wb.openFile('notebook.ipynb');
            const before = await wb.problemCounts();
            const squiggle = wb.page.locator('.notebook-editor .squiggly-error').first();
            await squiggle.waitFor({ timeout: 60000 });
            // The error is in the third cell (`c = a + b`), where it belongs.
            const cell = wb.page.locator('.notebook-editor .cell-editor-container', { has: wb.page.locator('.squiggly-error') });
            assert.equal(await cell.count(), 1, 'exactly one cell has the error');
            assert.match(await wb.editorText(cell.locator('.monaco-editor')), /c = a \+ b/);
            await wb.waitForProblems((c) => c.errors === before.errors + 1, 'the notebook error in Problems');
            await wb.screenshot('notebook-finding');
        }));

    it('keeps a notebook\'s findings in Problems while its cells scroll out of sight, with a badge on the notebook', () =>
        step('notebook-scroll', async () => {
            await wb.openFile('notebook_long.ipynb');
            const ours = (rows: string[]) => rows.filter((r) => /TP101|TP201/.test(r));
            const only = 'notebook_long';
            const found = await wb.waitForProblemRows((rows) => ours(rows).length >= 2, 'the notebook\'s TP101 and TP201', 90000, only);
            await wb.screenshot('notebook-long-problems');
            const before = ours(found).sort();
            // Into the first code cell, out to command mode, then to the last cell and back.
            await wb.page.locator('.notebook-editor:visible .cell-editor-container', { hasText: 'device = torch.device' }).first().click();
            await wb.page.keyboard.press('Escape');
            await wb.page.keyboard.press('Control+End');
            await wb.page.locator('.notebook-editor:visible .cell-editor-container', { hasText: 'done_17' }).first().waitFor();
            await wb.screenshot('notebook-long-scrolled-down');
            await wb.page.keyboard.press('Control+Home');
            await wb.page.locator('.notebook-editor:visible .cell-editor-container', { hasText: 'device = torch.device' }).first().waitFor();
            // Both ways done: what Problems shows for the notebook has not changed.
            assert.deepEqual(ours(await wb.problemRows(only)).sort(), before);
            await wb.problemRows('');
            const badges = await wb.explorerBadges();
            const badge = Object.entries(badges).find(([name]) => name.includes('notebook_long.ipynb'));
            assert.ok(badge && /\d/.test(badge[1]), `a problem badge on the notebook: ${JSON.stringify(badges)}`);
            await wb.screenshot('notebook-long-scrolled-back-with-badge');
        }));

    it('fixes a whole notebook with "Fix All Device Issues" from the palette', () =>
        step('notebook-fix-all', async () => {
            await wb.openFile('notebook_long.ipynb');
            const only = 'notebook_long';
            await wb.waitForProblemRows((rows) => rows.some((r) => /TP201/.test(r)) && rows.some((r) => /TP101/.test(r)),
                'the notebook\'s TP201 (cell 7) and TP101 (cell 13)', 30000, only);
            await wb.runCommand('torchplace: Fix All Device Issues');
            // Both have safe fixes: `x = x.to(device)`, and `b` created on the device.
            await wb.waitForProblemRows((rows) => !rows.some((r) => /TP\d{3}/.test(r)), 'every cell fixed', 30000, only);
            await wb.problemRows('');
            await wb.screenshot('notebook-fix-all-applied');
        }));

    it('keeps the other findings while a line is half-typed, and names the syntax error after a pause', () =>
        step('typing', async () => {
            await wb.openFile('typing_target.py');
            const only = 'typing_target';
            await wb.waitForProblemRows((all) => all.some((r) => /TP101.*Ln 6/s.test(r)) && all.some((r) => /TP201.*Ln 8/s.test(r)),
                'TP101 on line 6 and TP201 on line 8', 60000, only);
            await wb.activeEditor().click();
            await wb.goToLine(3);
            await wb.page.keyboard.press('End');
            // A new line after `device = ...`: "loss" still parses, "loss." does not.
            await wb.page.keyboard.type('\nloss.', { delay: 30 });
            // The server has seen the half-typed line when the findings below it moved down one line.
            const during = await wb.waitForProblemRows((all) => all.some((r) => /TP101.*Ln 7/s.test(r)), 'TP101 moved to line 7', 30000, only);
            assert.ok(during.some((r) => /TP201.*Ln 9/s.test(r)), `TP201 kept, moved: ${JSON.stringify(during)}`);
            assert.ok(!during.some((r) => /TP001/.test(r)), `no syntax error while typing: ${JSON.stringify(during)}`);
            await wb.screenshot('typing-half-written-line-keeps-findings');
            const after = await wb.waitForProblemRows((all) => all.some((r) => /TP001/.test(r)), 'TP001 after the pause', 30000, only);
            assert.equal(after.filter((r) => /TP101|TP201/.test(r)).length, 2, `the other findings stay next to it: ${JSON.stringify(after)}`);
            await wb.screenshot('typing-syntax-error-after-a-pause');
            await wb.activeEditor().click();
            for (let undo = 0; undo < 8; undo++) {
                await wb.page.keyboard.press('Control+Z');
            }
            await wb.waitForProblemRows((all) => !all.some((r) => /TP001/.test(r)) && all.some((r) => /TP101.*Ln 6/s.test(r)),
                'back to the original text', 30000, only);
            await wb.problemRows('');
        }));

    it('updates an importer within 2 s when the module it imports is overwritten on disk', () =>
        step('watched-files', async () => {
            // The project of tests/crossfile: utils.to_device forgets to return the moved batch.
            const project = path.join(REPO, 'tests', 'crossfile', 'projects', 'helper_forgets_return');
            fs.cpSync(project, path.join(server.workspace, 'crossfile'), { recursive: true });
            await wb.openFile('train.py');
            await wb.waitForProblemRows((all) => all.some((r) => /TP103/.test(r)), 'TP103 in train.py', 90000);
            const utils = path.join(server.workspace, 'crossfile', 'utils.py');
            const started = Date.now();
            fs.writeFileSync(utils, fs.readFileSync(utils, 'utf8').replace('    batch.to(device)\n    return batch', '    return batch.to(device)'));
            await wb.waitForProblemRows((all) => !all.some((r) => /TP103/.test(r)), 'train.py re-checked', 10000);
            const took = Date.now() - started;
            await wb.screenshot('importer-updated-after-disk-change');
            console.log(`# the importer was updated ${took} ms after the module changed on disk`);
            assert.ok(took <= 2000, `the importer was updated ${took} ms after the module changed on disk`);
        }));

    it('shows a short hover, and the rule\'s page rendered from "Show documentation"', () =>
        step('docs', async () => {
            await wb.openFile('mixed_devices.py');
            const squiggle = wb.activeEditor().locator('.squiggly-error').first();
            await squiggle.waitFor();
            await wb.pointAt(squiggle);
            const text = await wb.hoverText(/Documentation for TP101/);
            await wb.screenshot('hover-short', true);
            const lines = text.split('\n').filter((l) => l.trim() !== '');
            assert.ok(lines.length <= 12, `hover of ${lines.length} lines:\n${text}`);
            assert.match(text, /TP101/);
            assert.match(text, /Documentation for TP101/);
            await wb.page.keyboard.press('Escape');
            await wb.goToLine(7); // the squiggle's line: the lightbulb's actions are for the cursor
            const docs = await wb.codeAction('Show documentation for TP101');
            await docs.click();
            await wb.page.locator('.tab', { hasText: 'TP101 mixed-devices' }).first().waitFor();
            await wb.waitUntil(async () => (await wb.frameShowing('Why is this bad?')) !== undefined, 'the rule page rendered in a webview');
            await wb.screenshot('rule-page-rendered');
        }));

    it('names a wrong setting value in one message without a reload (the time printed); the Settings UI has sections', () =>
        step('settings', async () => {
            await wb.dismissNotifications();
            // Watched from before the save: replaceUserSettings also closes the settings editor, and
            // the time that takes is the harness's, not the time until the message is on screen.
            const toast = wb.page.locator('.notification-toast .notification-list-item-message', { hasText: /torchplace\.severity/ }).first();
            const appeared = toast.waitFor({ timeout: 60000 }).then(() => Date.now());
            const saved = await wb.replaceUserSettings({ ...USER_SETTINGS, 'torchplace.severity': { TP201: 'fatal' } });
            const shown = await wb.waitForNotification(/torchplace\.severity/, 60000);
            const took = (await appeared) - saved;
            assert.match(shown, /"fatal"/);
            assert.equal((await wb.notifications()).filter((n) => /torchplace\.severity/.test(n)).length, 1);
            await wb.screenshot('setting-problem-message');
            // The extension answers VS Code's change event at once (its log has both lines at the same
            // moment); how long code-server takes to deliver the event after a save depends on the load.
            const logged = Workbench.logTime(server.logsDir, /1 setting has a wrong value: torchplace\.severity/);
            console.log(`# settings saved; the extension named the value ${logged !== undefined ? logged - saved : '?'} ms later, on screen after ${took} ms`);
            // Without a reload it would never be named; the time is printed, not asserted: on a machine
            // under load (load average 10 on 2 cores) the change reached the extension 6-8 s after the save.
            assert.ok(logged !== undefined, 'named without a reload');
            await wb.dismissNotifications();
            await wb.replaceUserSettings(USER_SETTINGS);
            await wb.runCommand('Preferences: Open Settings (UI)');
            await wb.page.locator('.settings-editor').first().waitFor();
            await wb.page.keyboard.type('@ext:torchplace.torchplace'); // the search box has the focus
            const toc = wb.page.locator('.settings-toc-container');
            for (const section of ['Rules', 'Server', 'Probe']) {
                await toc.locator('.monaco-list-row', { hasText: section }).first().waitFor();
            }
            await wb.page.locator('.setting-item', { hasText: 'Severity' }).locator('.setting-list-addButton, .monaco-button', { hasText: /Add Item/ }).first().waitFor();
            await wb.screenshot('settings-ui-sections-and-severity-editor');
            await wb.page.keyboard.press('Control+W');
        }));

    it('says which setting to fix when the interpreter does not exist', () =>
        step('bad-interpreter', async () => {
            await wb.dismissNotifications();
            machine({ 'torchplace.interpreter': ['/nonexistent/bin/python3'] });
            const shown = await wb.waitForNotification(/was not found/);
            assert.match(shown, /torchplace\.interpreter/);
            await wb.screenshot('bad-interpreter-notification');
        }));

    it('says how to install torchplace when the interpreter lacks it, and recovers when fixed', () =>
        step('torchplace-missing', async () => {
            await wb.dismissNotifications();
            // `-S` hides site-packages: a real Python without torchplace.
            machine({ 'torchplace.interpreter': [path.join(PYTHON_BIN, 'python'), '-S'] });
            const shown = await wb.waitForNotification(/not installed/);
            // The command installs the wheel shipped in the .vsix (torchplace is not on the index).
            assert.match(shown, /-m pip install \S*torchplace-[\d.]+-py3-none-any\.whl/);
            assert.match(shown, /useBundled/);
            await wb.screenshot('torchplace-missing-notification');
            await wb.dismissNotifications();
            machine(MACHINE_SETTINGS);
            await wb.openFile('mixed_devices.py');
            await wb.activeEditor().locator('.squiggly-error').first().waitFor({ timeout: 60000 });
        }));

    it('stops restarting a server that exits on start, and says so', () =>
        step('server-exits', async () => {
            // A Python that passes the start-up check, but whose server dies at once.
            const fake = path.join(path.dirname(server.workspace), 'python-whose-server-exits');
            fs.writeFileSync(
                fake,
                `#!/bin/sh\nfor a in "$@"; do [ "$a" = torchplace_server ] && { echo "simulated crash on start" >&2; exit 3; }; done\nexec ${path.join(PYTHON_BIN, 'python')} "$@"\n`,
                { mode: 0o755 },
            );
            await wb.dismissNotifications();
            machine({ 'torchplace.interpreter': [fake] });
            const shown = await wb.waitForNotification(/exited while starting|stopped unexpectedly/, 60000);
            assert.match(shown, /simulated crash on start/, 'the server\'s last words are quoted');
            // A server that never got going is not restarted: the start failure is final once logged.
            await wb.waitForLog(server.logsDir, /exited while starting/);
            await wb.screenshot('server-exits-notification');
            const all = await wb.notifications();
            assert.equal(all.filter((n) => /exited while starting|stopped unexpectedly/.test(n)).length, 1, JSON.stringify(all));
            assert.ok(!all.some((n) => /connection to server is erroring|couldn't create connection/.test(n)), `no raw client errors: ${JSON.stringify(all)}`);
            await wb.dismissNotifications();
            machine(MACHINE_SETTINGS);
        }));

    it('restarts a crashing server a few times, then stops and says so', () =>
        step('server-crashes', async () => {
            // A Python whose server crashes one second after it is up (after `initialized`,
            // however long starting takes on a busy machine): the test launcher's switch.
            const fake = path.join(path.dirname(server.workspace), 'python-whose-server-crashes');
            const python = path.join(PYTHON_BIN, 'python');
            const launcher = path.join(REPO, 'tests', 'server', 'server_with_test_hooks.py');
            fs.writeFileSync(
                fake,
                `#!/bin/sh\nfor a in "$@"; do [ "$a" = torchplace_server ] && exec ${python} ${launcher} --exit-after-initialized 1; done\nexec ${python} "$@"\n`,
                { mode: 0o755 },
            );
            await wb.dismissNotifications();
            machine({ 'torchplace.interpreter': [fake] });
            const shown = await wb.waitForNotification(/stopped unexpectedly 4 times/, 180000);
            assert.match(shown, /Restart Server/);
            await wb.screenshot('server-crash-loop-notification');
            // Giving up is decided when the connection closes and logged with the message: final.
            await wb.waitForLog(server.logsDir, /so it was not restarted again/);
            assert.equal((await wb.notifications()).filter((n) => /stopped/.test(n)).length, 1);
            await wb.dismissNotifications();
            machine(MACHINE_SETTINGS);
        }));
});
