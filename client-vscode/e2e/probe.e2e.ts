/**
 * The probe in real VS Code (code-server) works like Jupyter: Cancel stops a
 * looping cell at once, and editing a probed line clears its results from the
 * Problems panel and the editor. Screenshots go to test-artifacts/vscode-probe/.
 *
 * Run by scripts/test.d/50-vscode.sh (after editor.e2e), which sets
 * CODE_SERVER_ENTRY, NODE24 and VSIX; code-server suites run under one lock:
 * `flock /work/wt/vscode-e2e.lock ...` when several checkouts share a machine.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { closeSession, E2eSession, openSession, step } from './e2eSession';
import { MACHINE_SETTINGS, PYTHON_BIN, QUIET_SETTINGS, REPO } from './fixtures';
import { Workbench } from './workbench';

const ARTIFACTS = path.join(REPO, 'test-artifacts', 'vscode-probe');

const USER_SETTINGS = {
    ...QUIET_SETTINGS,
    'torchplace.probe.simulateGpu': 'on',
    'torchplace.showNotifications': 'onError',
};

describe('the probe in VS Code (code-server)', { timeout: 10 * 60 * 1000 }, () => {
    let session: E2eSession;
    let wb: Workbench;

    before(async () => {
        session = await openSession(ARTIFACTS, PYTHON_BIN, USER_SETTINGS, MACHINE_SETTINGS);
        wb = session.wb;
    });

    after(() => closeSession(session));

    /** The probe view's one-line status, e.g. "ok · simulated GPU · probe_edit.py". */
    function viewMessage(file: string) {
        return wb.page.locator('.pane-body .message', { hasText: file }).first();
    }

    async function probeLine(line: number): Promise<void> {
        await wb.goToLine(line);
        await wb.page.keyboard.press('Control+Alt+P'); // torchplace: Probe Current Cell
    }

    it('Cancel stops a looping cell within 2 s', () =>
        step(wb, 'cancel', async () => {
            await wb.openFile('probe_loop.py');
            await probeLine(3); // warm the kernel with the first cell
            await wb.waitUntil(async () => /^ok/.test(await viewMessage('probe_loop.py').innerText().catch(() => '')),
                'the first cell to run', 180000);
            await probeLine(7);
            const toast = wb.page.locator('.notification-toast', { hasText: 'torchplace: probing probe_loop.py:7' }).first();
            await toast.waitFor();
            await wb.page.waitForTimeout(1500); // the loop is running in the kernel
            await wb.screenshot('loop-running');
            const cancel = toast.locator('.monaco-button', { hasText: 'Cancel' }).first();
            const started = Date.now();
            await cancel.click();
            await wb.waitUntil(async () => /^cancelled/.test(await viewMessage('probe_loop.py').innerText().catch(() => '')),
                'the probe to report the cancel', 10000);
            const elapsed = Date.now() - started;
            await wb.screenshot('loop-cancelled');
            assert.ok(elapsed < 2000, `the looping cell stopped ${elapsed} ms after Cancel`);
        }));

    it('editing a probed line clears its probe result', () =>
        step(wb, 'edit-clears', async () => {
            await wb.openFile('probe_edit.py');
            await probeLine(5);
            await wb.waitUntil(async () => /^ok/.test(await viewMessage('probe_edit.py').innerText().catch(() => '')),
                'the cell to run', 180000);
            // Rows on screen only (the Problems list keeps recycled rows hidden in the page).
            const probed = (rows: string[]) => rows.some((r) => r.includes('cuda:0 float32 [4]'));
            await wb.waitForProblemRows(probed, "the probe's result in Problems", 30000, 'probe_edit.py');
            const hasHint = async () => (await wb.afterLineTexts()).some((h) => /cuda:0 float32 \[4\]/.test(h));
            await wb.waitUntil(hasHint, 'the inline hint after the probed line');
            await wb.screenshot('probed');
            await wb.goToLine(5);
            await wb.page.keyboard.press('End');
            await wb.page.keyboard.type(' + 0');
            await wb.waitForProblemRows((rows) => !probed(rows), "the probe's result to leave Problems", 5000, 'probe_edit.py');
            assert.equal(await hasHint(), false, 'the inline hints went with the edit');
            await wb.screenshot('edited');
            await wb.problemRows('');
        }));
});
