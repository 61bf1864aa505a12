// Types for latency-proxy.cjs, so type-checked tests can use it.

export interface LatencyProxy {
	port: number;
	/** Connections accepted and bytes each way, since the start. */
	stats: { connections: number; bytesUp: number; bytesDown: number };
	close(): Promise<void>;
}

export declare function startLatencyProxy(options: {
	/** The loopback server: its port on 127.0.0.1, or host and port. */
	target: number | { host: string; port: number };
	/** The round trip, in milliseconds: each direction is delayed by half of it. */
	rttMs: number;
	/** More time before a new connection's first byte leaves (a slow handshake far away). */
	connectDelayMs?: number;
	/** Slow-start flights per connection (default on). */
	slowStart?: boolean;
	initialWindowBytes?: number;
}): Promise<LatencyProxy>;

export declare const INITIAL_WINDOW_BYTES: number;

/** The slow-start model alone (for its tests): when each slice of what one side sends leaves. */
export declare class Flights {
	constructor(rttMs: number, initialWindowBytes: number);
	/** `chunk` handed to the link at `now` (ms): its slices and when each leaves. */
	send(chunk: Buffer, now: number): Array<[Buffer, number]>;
}
