import type { AnyTool } from '../define.js';
import {
  getMemoirAgentStatusTool,
  getMemoirAgentTool,
  getMemoirCharacterTool,
  getMemoirInsightsTool,
  getMemoirPromptTool,
} from './agent.js';
import { listMemoirChatTool, memoirChatTool } from './chat.js';
import {
  answerQuestionnaireTool,
  createJournalEntryTool,
  deleteJournalEntryTool,
  getQuestionnaireTool,
  listJournalEntriesTool,
  updateJournalEntryTool,
} from './journal.js';
import { exportMemoirTool, exportSharedMemoirTool } from './export.js';
import { deleteMemoirMediaTool, listMemoirMediaTool, updateMemoirMediaTool, uploadMemoirMediaTool } from './media.js';
import { getMemoirMediaInferenceTool } from './media-inference.js';
import {
  getSharedMemoirMediaFileTool,
  listSharedMemoirMediaTool,
  prepayMemoirHeirChatTool,
  synthesizeSharedMemoirVoiceTool,
} from './heirs-media.js';
import { getMemoirSetupTool, setMemoirSetupTool } from './setup.js';
import { generateAvatarTool, getVoiceStatusTool, synthesizeVoiceTool } from './voice.js';
import {
  linkMemoirPlanTool,
  listMemoirPlansTool,
  listMemoirSharesTool,
  reissueMemoirShareCodeTool,
  reportDeadmanEventTool,
  revokeMemoirShareTool,
  unlinkMemoirPlanTool,
  updateMemoirPlanTool,
} from './heirs.js';
import {
  claimMemoirShareTool,
  getSharedMemoirInsightsTool,
  getSharedMemoirQuestionnaireTool,
  getSharedMemoirTool,
  listHeldMemoirSharesTool,
  listSharedMemoirChatTool,
  listSharedMemoirJournalTool,
  sharedMemoirChatTool,
} from './shared.js';

/** The memoir's tools, in listing order; the last seven take a multipart upload or answer with a file. */
export const MEMOIR_TOOLS: readonly AnyTool[] = [
  getMemoirSetupTool,
  setMemoirSetupTool,
  getMemoirAgentTool,
  getMemoirAgentStatusTool,
  getMemoirPromptTool,
  createJournalEntryTool,
  listJournalEntriesTool,
  updateJournalEntryTool,
  deleteJournalEntryTool,
  getQuestionnaireTool,
  answerQuestionnaireTool,
  memoirChatTool,
  listMemoirChatTool,
  getMemoirInsightsTool,
  getMemoirCharacterTool,
  listMemoirMediaTool,
  updateMemoirMediaTool,
  deleteMemoirMediaTool,
  getMemoirMediaInferenceTool,
  getVoiceStatusTool,
  // Heirs' access: the owner's side, then the heir's.
  linkMemoirPlanTool,
  listMemoirPlansTool,
  updateMemoirPlanTool,
  unlinkMemoirPlanTool,
  reportDeadmanEventTool,
  listMemoirSharesTool,
  revokeMemoirShareTool,
  reissueMemoirShareCodeTool,
  prepayMemoirHeirChatTool,
  claimMemoirShareTool,
  listHeldMemoirSharesTool,
  getSharedMemoirTool,
  listSharedMemoirJournalTool,
  getSharedMemoirQuestionnaireTool,
  getSharedMemoirInsightsTool,
  sharedMemoirChatTool,
  listSharedMemoirChatTool,
  listSharedMemoirMediaTool,
  uploadMemoirMediaTool,
  synthesizeVoiceTool,
  generateAvatarTool,
  exportMemoirTool,
  exportSharedMemoirTool,
  getSharedMemoirMediaFileTool,
  synthesizeSharedMemoirVoiceTool,
];
