/**
 * A platform for the trigger's timing tests: a real loopback server whose listing comes in two
 * pages (by id, as a keyset cursor pages: a service stays on its page whatever else changes), and
 * that can hold a page's answer until the test releases it, or fail it. An answer says what the
 * platform held when its request arrived (a slow answer, not a slow platform). Every change is kept
 * in a history per service, the ground truth an oracle judges events against.
 */
import type { ServerResponse } from 'node:http';

import fc from 'fast-check';

import { serviceRecord } from './fixtures';
import type { LocalServer } from './localServer';
import { startLocalServer } from './localServer';

export interface ServiceValues {
	status: string;
	vcores: number;
}

/** One version of a service: its values from `at` on (the platform's change count then), or absent. */
export interface Version {
	at: number;
	values?: ServiceValues;
}

/** What the next listing does with each page: answer at once (default), hold until released, or fail. */
export interface ListingPlan {
	hold?: 1 | 2;
	fail?: 1 | 2;
}

interface Pending {
	listing: number;
	page: 1 | 2;
	body: string;
	status: number;
	res: ServerResponse;
}

const LISTING_PATH = '/v2026/services';

export class HeldPlatform {
	readonly services = new Map<string, ServiceValues>();
	/** Every version of every service, in order (the first: as the platform started). */
	readonly history = new Map<string, Version[]>();
	/** Changes made so far: the platform's clock. */
	changes = 0;
	/** Listings begun (a page 1 request). */
	listings = 0;
	private plans = new Map<number, ListingPlan>();
	private nextPlan: ListingPlan = {};
	private pending: Pending[] = [];
	private waiters: Array<() => void> = [];
	private server?: LocalServer;

	/** `pageOne`: the ids that are on page 1 (the rest are on page 2). */
	constructor(
		initial: ReadonlyMap<string, ServiceValues>,
		private readonly pageOne: (id: string) => boolean,
	) {
		for (const [id, values] of initial) this.services.set(id, values);
		for (const id of initial.keys()) this.history.set(id, [{ at: 0, values: initial.get(id) }]);
	}

	async start(): Promise<string> {
		this.server = await startLocalServer({
			handler: (req, res) => {
				const url = new URL(req.url ?? '/', 'http://platform');
				if (url.pathname !== LISTING_PATH) {
					res.writeHead(404).end();
					return;
				}
				const page = url.searchParams.get('page') === '2' ? 2 : 1;
				const listing = page === 1 ? ++this.listings : Number(url.searchParams.get('listing'));
				if (page === 1) this.plans.set(listing, this.nextPlan);
				if (page === 1) this.nextPlan = {};
				const plan = this.plans.get(listing) ?? {};
				const next = page === 1 ? `${this.origin}${LISTING_PATH}?page=2&listing=${listing}` : null;
				const records = [...this.services]
					.filter(([id]) => this.pageOne(id) === (page === 1))
					.map(([id, values]) => serviceRecord({ id, ...values }));
				const failed = plan.fail === page;
				const answer: Pending = {
					listing,
					page,
					res,
					status: failed ? 500 : 200,
					body: JSON.stringify(failed ? { error: 'platform failure' } : { data: records, next }),
				};
				if (plan.hold === page) this.pending.push(answer);
				else send(answer);
				this.notify();
			},
		});
		return this.server.origin;
	}

	get origin(): string {
		if (this.server === undefined) throw new Error('start() first');
		return this.server.origin;
	}

	/** The next listing (the next page 1 request) follows `plan`; returns its number. */
	plan(plan: ListingPlan): number {
		this.nextPlan = plan;
		return this.listings + 1;
	}

	/** Resolves when listing `listing` has a page held. */
	async held(listing: number): Promise<void> {
		while (!this.pending.some((answer) => answer.listing === listing)) await new Promise<void>((resolve) => this.waiters.push(resolve));
	}

	/** The listings with a page held, oldest first. */
	heldListings(): number[] {
		return this.pending.map((answer) => answer.listing);
	}

	/** Sends the held answer of `listing` (as the platform was when its request arrived). */
	release(listing: number): void {
		const index = this.pending.findIndex((answer) => answer.listing === listing);
		if (index < 0) throw new Error(`listing ${listing} holds no answer`);
		send(this.pending.splice(index, 1)[0]);
	}

	/** Fails every held answer (a process that held them was killed: nobody waits for them). */
	failHeld(): void {
		for (const answer of this.pending.splice(0)) send({ ...answer, status: 500, body: '{"error":"gone"}' });
	}

	set(id: string, values: ServiceValues | undefined): void {
		const before = this.services.get(id);
		if (values === undefined ? before === undefined : before?.status === values.status && before?.vcores === values.vcores) return;
		this.changes++;
		if (values === undefined) this.services.delete(id);
		else this.services.set(id, values);
		const versions = this.history.get(id) ?? [{ at: 0 }];
		versions.push({ at: this.changes, values });
		this.history.set(id, versions);
	}

	private notify(): void {
		for (const wake of this.waiters.splice(0)) wake();
	}
}

function send({ res, status, body }: Pending): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(body);
}

/** A change of the platform a model generates. */
export type PlatformChange =
	| { kind: 'create'; id: string; status: string; vcores: number }
	| { kind: 'remove'; id: string }
	| { kind: 'status'; id: string; status: string }
	| { kind: 'vcores'; id: string; vcores: number };

/** Changes of the services `ids`, each status one of `statuses`, as the models draw them (with their weights in a model's step list). */
export function platformChangeArbs(ids: readonly string[], statuses: readonly string[]) {
	const id = fc.constantFrom(...ids);
	const status = fc.constantFrom(...statuses);
	const vcores = fc.integer({ min: 1, max: 8 });
	return [
		{ weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), id, status, vcores }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
		{ weight: 3, arbitrary: fc.record({ kind: fc.constant('status' as const), id, status }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('vcores' as const), id, vcores }) },
	];
}

/** What `change` makes of the service it names: its new values, or undefined when it is gone; `services` unchanged. */
export function changedValues(services: ReadonlyMap<string, ServiceValues>, change: PlatformChange): ServiceValues | undefined {
	const service = services.get(change.id);
	switch (change.kind) {
		case 'create':
			return service ?? { status: change.status, vcores: change.vcores };
		case 'remove':
			return undefined;
		case 'status':
			return service && { ...service, status: change.status };
		case 'vcores':
			return service && { ...service, vcores: change.vcores };
	}
}
