/**
 * n8n 2.41.1 as a polling trigger meets it, one process at a time, at every point where a SIGKILL
 * can fall: what is saved when, which execution exists, what the next start does with it. Each
 * poll runs the real node through n8n-core's PollTriggerExecutor and PollContext (tools/lib/engine.cjs);
 * what happens around the poll is re-done from n8n 2.41.1's code:
 *
 * - default settings (`cli/workflows/triggers/trigger-execution-context.factory.js`, `__emit`): the
 *   static data save starts before the execution row is inserted, not awaited; a poll that emits
 *   nothing saves nothing; the activation saves the static data when it ends
 *   (`workflow-trigger-activator.js` activateInternal); every cron poll of one activation shares its
 *   context (one Workflow, one static data object, the activation's mode);
 * - durable poll cursors (`N8N_POLLER_DURABLE_CURSORS_ENABLED` with the scheduler): each poll gets a
 *   deep copy of the cursor (`__runPoll`), created from the node's static data the first time
 *   (`poller-state.repository.js` getOrCreateCursor); a poll that emits commits the cursor with the
 *   execution row in one transaction (`poll-cursor.service.js` commitWithExecution), one that emits
 *   nothing commits the cursor alone, except the poll at activation, which is not committed
 *   (`poll-trigger-executor.js`, testingTrigger); scheduled polls report activation mode "update"
 *   and a fresh Workflow from the database each time; after a restart no activation poll runs
 *   (`poll-trigger-job-registrar.js`: only newly inserted jobs poll at activation);
 * - at start, executions still `new` run (`enqueued-execution-recovery.service.js`); a running one
 *   was marked crashed and never runs again.
 */
import type { IDataObject, INode, INodeType, Workflow } from 'n8n-workflow';

import type { TestCredentials } from './workflow';
import { createWorkflow, poll, registerNodeType, SERVICES_TRIGGER_TYPE } from './workflow';

export type Setting = 'default' | 'durable';

/** Where a SIGKILL falls in one poll. */
export const CRASH_POINTS = ['none', 'poll', 'beforeSave', 'afterSave', 'afterRow', 'running'] as const;
/**
 * - `poll`: during poll(): nothing of it is saved or started;
 * - `beforeSave`: after the emit, before the state is saved (durable: before the commit);
 * - `afterSave`: the state saved, no execution row yet (durable: one transaction, so as `afterRow`);
 * - `afterRow`: the execution row is `new`, not started: it runs at the next start;
 * - `running`: the execution runs, its output not yet out: crashed, never run again.
 */
export type CrashPoint = (typeof CRASH_POINTS)[number];

export interface Execution {
	items: IDataObject[];
	status: 'new' | 'success' | 'crashed';
}

/** What survives a process: the database. */
export class N8nDatabase {
	/** workflow_entity.staticData, as JSON. */
	workflowStaticData: IDataObject = {};
	/** poller_state.cursor of the trigger node (durable cursors), as JSON; undefined while there is no row. */
	cursor?: IDataObject;
	executions: Execution[] = [];
	/** Durable scheduling: the trigger's scheduled jobs exist (the poll at activation runs only when they are inserted). */
	jobsProvisioned = false;
}

/** The Services Trigger from a fresh copy of the node's modules: nothing of another process's memory. */
export function freshServicesTrigger(): INodeType {
	let trigger: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require('../../nodes/ServicesTrigger/ServicesTrigger.node') as { ServicesTrigger: new () => INodeType };
		trigger = new module.ServicesTrigger();
	});
	return trigger!;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** One n8n process: a fresh copy of the node's module (its process memory), the database it shares with the next one. */
export class N8nProcess {
	/** Default settings: the Workflow of the activation, whose static data lives on between polls. */
	private workflow?: Workflow;
	private activationMode = 'activate';
	alive = true;

	constructor(
		readonly db: N8nDatabase,
		readonly setting: Setting,
		readonly node: INode,
		readonly credentials: TestCredentials,
		/** The sink: an execution's items, when it runs to its end. */
		private readonly deliver: (items: IDataObject[]) => void,
		/** The node's modules: a fresh copy is a new process; the same one, this process again (a renamed node). */
		readonly nodeType: INodeType = freshServicesTrigger(),
	) {
		registerNodeType(SERVICES_TRIGGER_TYPE, nodeType);
	}

	/**
	 * n8n starts: executions still `new` run; then the workflow is activated ("activate" the first time,
	 * "init" after a restart, "update" when an active workflow was changed, e.g. its trigger renamed).
	 */
	async start(activationMode: 'activate' | 'init' | 'update', crash: CrashPoint = 'none'): Promise<void> {
		for (const execution of this.db.executions) {
			if (execution.status !== 'new') continue;
			this.deliver(execution.items);
			execution.status = 'success';
		}
		this.activationMode = activationMode;
		const workflow = createWorkflow([this.node], json(this.db.workflowStaticData));
		if (this.setting === 'default') {
			this.workflow = workflow;
		} else {
			if (this.db.jobsProvisioned) return;
			this.db.jobsProvisioned = true;
		}
		await this.pollOnce(workflow, true, activationMode, crash);
		// The activation saves the workflow's static data when it ends (awaited).
		if (this.alive) this.db.workflowStaticData = json(workflow.staticData);
	}

	/**
	 * One scheduled poll, killed at `crash`. `leaseLost` (durable): the poll lost its lease meanwhile,
	 * so n8n commits nothing of it and drops its events (`runPolledWorkflow`: "Poll cursor commit
	 * skipped"); the process lives on.
	 */
	async poll(crash: CrashPoint = 'none', { leaseLost = false }: { leaseLost?: boolean } = {}): Promise<void> {
		if (this.setting === 'default') {
			if (this.workflow === undefined) throw new Error('start() first');
			await this.pollOnce(this.workflow, false, this.activationMode, crash);
		} else {
			await this.pollOnce(createWorkflow([this.node], json(this.db.workflowStaticData)), false, 'update', crash, leaseLost);
		}
	}

	private async pollOnce(
		workflow: Workflow,
		activation: boolean,
		activationMode: string,
		crash: CrashPoint,
		leaseLost = false,
	): Promise<void> {
		if (!this.alive) throw new Error('this process was killed');
		if (crash === 'poll') {
			this.alive = false;
			return;
		}
		const durable = this.setting === 'durable';
		let staged: { snapshot: IDataObject; seed: string } | undefined;
		const take = (): IDataObject | null => {
			if (staged === undefined || JSON.stringify(staged.snapshot) === staged.seed) return null;
			staged.seed = JSON.stringify(staged.snapshot);
			return json(staged.snapshot);
		};
		const cursor = durable
			? {
					runPoll: async <T>(run: () => Promise<T>): Promise<T> => {
						this.db.cursor ??= json((workflow.staticData[`node:${this.node.name}`] as IDataObject | undefined) ?? {});
						staged = { snapshot: json(this.db.cursor), seed: JSON.stringify(this.db.cursor) };
						return await run();
					},
					resolveNodeStaticData: () => staged!.snapshot,
					// Called by n8n-core's executor after a scheduled poll that emitted nothing.
					commitCursor: async () => {
						if (!this.alive) return;
						const committed = take();
						if (crash === 'beforeSave' || leaseLost) return;
						if (committed !== null) this.db.cursor = committed;
					},
				}
			: undefined;
		const { emitted, error } = await poll({ workflow, node: this.node, credentials: this.credentials, activation, activationMode, cursor });
		// A poll of a process killed meanwhile (polls overlap): nothing of it is saved, started or reported.
		if (!this.alive) return;
		if (error !== undefined) throw error;
		if (emitted === null) {
			if (crash !== 'none') this.alive = false;
			return;
		}
		const items = emitted[0].map((item) => json(item.json));
		const committedCursor = durable ? take() : null;
		// __emit: the static data save starts first (default settings); durable: the cursor and the row commit together.
		if (crash === 'beforeSave') {
			this.alive = false;
			return;
		}
		this.db.workflowStaticData = json(workflow.staticData);
		if (leaseLost && committedCursor !== null) return;
		if (committedCursor !== null) this.db.cursor = committedCursor;
		if (crash === 'afterSave' && !durable) {
			this.alive = false;
			return;
		}
		const execution: Execution = { items, status: 'new' };
		this.db.executions.push(execution);
		if (crash === 'afterSave' || crash === 'afterRow') {
			this.alive = false;
			return;
		}
		if (crash === 'running') {
			execution.status = 'crashed';
			this.alive = false;
			return;
		}
		this.deliver(items);
		execution.status = 'success';
	}
}
