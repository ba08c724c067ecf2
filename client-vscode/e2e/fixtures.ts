/** What the editor e2e suite starts from: paths, and the user and machine settings of its profile. */
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../../..');
export const ARTIFACTS = path.join(REPO, 'test-artifacts', 'vscode');
export const PYTHON_BIN = process.env.TORCHPLACE_PYTHON_BIN ?? path.join(REPO, '.venv', 'bin');

export function required(name: string): string {
    const value = process.env[name];
    if (!value) {
        throw new Error(`${name} is not set: run this suite through scripts/test.d/50-vscode.sh`);
    }
    return value;
}

/** Settings for a quiet workbench: no tips, telemetry, trust prompts, chat or forwarded ports. */
export const QUIET_SETTINGS: Record<string, unknown> = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.ignoreRecommendations': true,
    'chat.disableAIFeatures': true,
    'editor.inlayHints.enabled': 'on',
    'editor.codeLens': true,
    'editor.minimap.enabled': false,
    'files.autoSave': 'off',
    'window.restoreWindows': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'remote.autoForwardPorts': false, // probe kernels open ports; no toasts about them
};

export const USER_SETTINGS = { ...QUIET_SETTINGS, 'torchplace.probe.simulateGpu': 'auto' };

/** `torchplace.interpreter` is machine-overridable: in code-server (a remote window) it comes from here. */
export const MACHINE_SETTINGS = { 'torchplace.interpreter': [path.join(PYTHON_BIN, 'python')] };
