export { ToolRefusedError, isToolRefusal, refusalOf, runGuarded, toolCall, type GuardToolOptions, type ToolRefusal } from './guarded-tool';
export {
  guardAiTool,
  guardAiTools,
  type AiToolExecutionOptions,
  type AiToolLike,
  type GuardAiToolOptions,
  type GuardedAiTool,
} from './ai-sdk';
export { guardAgentsTool, type AgentsFunctionToolLike, type GuardAgentsToolOptions } from './openai-agents';
