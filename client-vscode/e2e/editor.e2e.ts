/**
 * The extension in real VS Code (code-server) driven like a person would:
 * squiggles and the Problems count, the quick-fix from the lightbulb, Fix
 * All, the probe on a `# %%` cell, a notebook finding, and a wrong setting.
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
import { QUIET_SETTINGS } from './e2eSession';
import { Workbench } from './workbench';

const REPO = path.resolve(__dirname, '../../..');
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'vscode');
const PYTHON_BIN = process.env.TORCHPLACE_PYTHON_BIN ?? path.join(REPO, '.venv', 'bin');

function required(name: string): string {
    const value = process.env[name];
    if (!value) {
        throw new Error(`${name} is not set: run this suite through scripts/test.d/50-vscode.sh`);
    }
    return value;
}

const USER_SETTINGS = {
    ...QUIET_SETTINGS,
    'torchplace.interpreter': [path.join(PYTHON_BIN, 'python')],
    'torchplace.probe.simulateGpu': 'auto',
};



describe('torchplace in VS Code (code-server)', { timeout: 10 * 60 * 1000 }, () => {
    let server: RunningCodeServer;
    let browser: Browser;
    let wb: Workbench;

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
            await wb.page.keyboard.press('Control+.');
            const fix = wb.page.locator('.action-widget .monaco-list-row', { hasText: 'Assign the result' }).first();
            await fix.waitFor();
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

    it('says which setting to fix when the interpreter does not exist', () =>
        step('bad-interpreter', async () => {
            await wb.dismissNotifications();
            await wb.replaceUserSettings({ ...USER_SETTINGS, 'torchplace.interpreter': ['/nonexistent/bin/python3'] });
            const shown = await wb.waitForNotification(/was not found/);
            assert.match(shown, /torchplace\.interpreter/);
            await wb.screenshot('bad-interpreter-notification');
        }));

    it('says how to install torchplace when the interpreter lacks it, and recovers when fixed', () =>
        step('torchplace-missing', async () => {
            await wb.dismissNotifications();
            // `-S` hides site-packages: a real Python without torchplace.
            await wb.replaceUserSettings({ ...USER_SETTINGS, 'torchplace.interpreter': [path.join(PYTHON_BIN, 'python'), '-S'] });
            const shown = await wb.waitForNotification(/not installed/);
            assert.match(shown, /pip install torchplace/);
            assert.match(shown, /useBundled/);
            await wb.screenshot('torchplace-missing-notification');
            await wb.dismissNotifications();
            await wb.replaceUserSettings(USER_SETTINGS);
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
            await wb.replaceUserSettings({ ...USER_SETTINGS, 'torchplace.interpreter': [fake] });
            const shown = await wb.waitForNotification(/exited while starting|stopped unexpectedly/, 60000);
            assert.match(shown, /simulated crash on start/, 'the server\'s last words are quoted');
            await wb.page.waitForTimeout(3000); // let any restart attempts play out
            await wb.screenshot('server-exits-notification');
            const all = await wb.notifications();
            assert.equal(all.filter((n) => /exited while starting|stopped unexpectedly/.test(n)).length, 1, JSON.stringify(all));
            assert.ok(!all.some((n) => /connection to server is erroring|couldn't create connection/.test(n)), `no raw client errors: ${JSON.stringify(all)}`);
            await wb.dismissNotifications();
            await wb.replaceUserSettings(USER_SETTINGS);
        }));

    it('restarts a crashing server a few times, then stops and says so', () =>
        step('server-crashes', async () => {
            // A Python whose server runs for 4 seconds, then is killed.
            const fake = path.join(path.dirname(server.workspace), 'python-whose-server-crashes');
            fs.writeFileSync(
                fake,
                `#!/bin/sh\nfor a in "$@"; do [ "$a" = torchplace_server ] && exec timeout -s KILL 4 ${path.join(PYTHON_BIN, 'python')} "$@"; done\nexec ${path.join(PYTHON_BIN, 'python')} "$@"\n`,
                { mode: 0o755 },
            );
            await wb.dismissNotifications();
            await wb.replaceUserSettings({ ...USER_SETTINGS, 'torchplace.interpreter': [fake] });
            const shown = await wb.waitForNotification(/stopped unexpectedly 4 times/, 90000);
            assert.match(shown, /Restart Server/);
            await wb.screenshot('server-crash-loop-notification');
            await wb.page.waitForTimeout(6000); // no restart after giving up: no new notification
            assert.equal((await wb.notifications()).filter((n) => /stopped/.test(n)).length, 1);
            await wb.dismissNotifications();
            await wb.replaceUserSettings(USER_SETTINGS);
        }));
});
