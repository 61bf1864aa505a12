import type { AllEntities } from 'n8n-workflow';

/** Every resource of the Services node and its operations: the router's table must cover exactly these. */
type NodeMap = {
	service: 'get' | 'list';
};

export type ServicesNodeType = AllEntities<NodeMap>;
