/**
 * The result of `torchplace.probeCell`, read defensively into the few things
 * the client shows: the device the cell ran on, its variables, its transfers
 * and its error. The server publishes the same findings as diagnostics and
 * inlay hints; this is for the probe view and the status item. Pure.
 */

export interface ProbeVariable {
    name: string;
    line?: number;
    device?: string;
    dtype?: string;
    shape?: string;
}

export interface ProbeTransfer {
    line?: number;
    source?: string;
    target?: string;
    bytes?: number;
    text?: string;
}

export interface ProbeError {
    line?: number;
    message: string;
}

export interface ProbeSummary {
    ran: boolean;
    /** Why it did not run, when it did not. */
    reason?: string;
    /** e.g. "cuda:0 — NVIDIA H100", "simulated GPU", "cpu". */
    device?: string;
    variables: ProbeVariable[];
    transfers: ProbeTransfer[];
    errors: ProbeError[];
    /** 0-based line offset of the cell in its document, when given. */
    cellStart?: number;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
    if (typeof value === 'string') {
        return value;
    }
    return typeof value === 'number' ? String(value) : undefined;
}

function num(value: unknown): number | undefined {
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function first(obj: Json, keys: string[]): unknown {
    for (const key of keys) {
        if (obj[key] !== undefined && obj[key] !== null) {
            return obj[key];
        }
    }
    return undefined;
}

function shapeText(value: unknown): string | undefined {
    if (Array.isArray(value)) {
        return `[${value.join(', ')}]`;
    }
    return str(value);
}

function list(obj: Json, keys: string[]): unknown[] {
    const value = first(obj, keys);
    if (Array.isArray(value)) {
        return value;
    }
    // `{name: {...}}` maps are accepted as lists with the key as name.
    if (isObject(value)) {
        return Object.entries(value).map(([name, v]) => (isObject(v) ? { name, ...v } : { name, value: v }));
    }
    return [];
}

/** A human label for the device a probe ran on. */
export function deviceLabel(raw: Json): string | undefined {
    const info = isObject(raw.device) ? raw.device : isObject(raw.kernel) ? raw.kernel : raw;
    const simulated = first(info, ['simulated', 'simulatedGpu', 'simulated_gpu', 'fake']) ?? first(raw, ['simulated', 'simulatedGpu', 'simulated_gpu']);
    if (simulated === true) {
        return 'simulated GPU';
    }
    const name = str(first(info, ['device', 'name', 'device_name', 'deviceName', 'type']));
    const gpu = str(first(info, ['gpu', 'gpuName', 'gpu_name', 'deviceName', 'device_name']));
    if (name && gpu && gpu !== name) {
        return `${name} — ${gpu}`;
    }
    return name ?? gpu;
}

export function parseProbeResult(raw: unknown): ProbeSummary {
    if (!isObject(raw)) {
        return { ran: false, reason: 'the server returned no result', variables: [], transfers: [], errors: [] };
    }
    const ran = raw.ran !== false && raw.ok !== false;
    const variables = list(raw, ['variables', 'tensors', 'vars'])
        .filter(isObject)
        .map((v) => ({
            name: str(first(v, ['name', 'variable', 'target'])) ?? '?',
            line: num(first(v, ['line', 'lineno'])),
            device: str(first(v, ['device'])),
            dtype: str(first(v, ['dtype'])),
            shape: shapeText(first(v, ['shape', 'size'])),
        }));
    const transfers = list(raw, ['transfers', 'copies'])
        .filter(isObject)
        .map((t) => ({
            line: num(first(t, ['line', 'lineno'])),
            source: str(first(t, ['source', 'from', 'src', 'from_device'])),
            target: str(first(t, ['target', 'to', 'dst', 'to_device'])),
            bytes: num(first(t, ['bytes', 'nbytes', 'size'])),
            text: str(first(t, ['text', 'message', 'label'])),
        }));
    const errorValue = first(raw, ['errors', 'error', 'exception']);
    const errors: ProbeError[] = [];
    for (const e of Array.isArray(errorValue) ? errorValue : errorValue !== undefined ? [errorValue] : []) {
        if (isObject(e)) {
            const message = str(first(e, ['message', 'text', 'evalue', 'error'])) ?? JSON.stringify(e);
            const type = str(first(e, ['type', 'ename']));
            errors.push({ line: num(first(e, ['line', 'lineno'])), message: type && !message.startsWith(type) ? `${type}: ${message}` : message });
        } else if (typeof e === 'string') {
            errors.push({ message: e });
        }
    }
    return {
        ran,
        reason: ran ? undefined : str(first(raw, ['reason', 'message'])),
        device: deviceLabel(raw),
        variables,
        transfers,
        errors,
        cellStart: num(first(raw, ['cellStart', 'cell_start'])),
    };
}

export function formatBytes(bytes: number): string {
    const units = ['B', 'KiB', 'MiB', 'GiB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** One line describing a transfer, e.g. "cpu → cuda:0 (4.0 KiB)". */
export function transferText(t: ProbeTransfer): string {
    if (t.text) {
        return t.text;
    }
    const route = `${t.source ?? '?'} → ${t.target ?? '?'}`;
    return t.bytes !== undefined ? `${route} (${formatBytes(t.bytes)})` : route;
}

/** One line describing a variable, e.g. "cuda:0 float32 [2, 3]". */
export function variableText(v: ProbeVariable): string {
    return [v.device, v.dtype, v.shape].filter((x) => x !== undefined && x !== '').join(' ');
}
