/**
 * `chessbridge replay journal/games/<game>.jsonl`: a game's journal through the supervisor, as
 * the daemon decided it — the black-box recorder read back for an arbiter. Each event is shown
 * with the time it happened (the journal's clock), as text or one JSON object a line; the
 * journal's own records can be listed too (what the board reported, what was commanded, when).
 *
 *   const code = await replayJournals(['journal/games/r1-b3.jsonl'], { json: false }, out, err);
 *   // 13:30:05.134  r1-b3 #1   move 1. e4
 *   // DAMAGED …/r1-b3.jsonl: line 21 (312 bytes at offset 5120) damaged: not JSON; record seq 20 lost
 *
 * A journal damaged inside is salvaged: its good records are replayed, each damaged range is
 * marked, and the exit code is 3 (DAMAGED) unless another journal could not be read at all (1).
 */
import {
  describeDamage,
  lostSeqs,
  readJournalAll,
  type DamagedRange,
  type JournalHeader,
} from '../../journal/index.js';
import type { GameEvent } from '../../../engine/events.js';
import type { SupervisorPort } from '../../game/engine.js';
import { replayGameRun } from '../../game/gameRun.js';
import { engineSettingsOf } from '../../game/gameSpecs.js';
import { makeEventMessage } from '../../wire/events.js';
import { wireWord } from '../../wire/words.js';
import { DEFAULT_LANG, endText, t } from '../../i18n/messages.js';
import { eventText } from '../../i18n/eventText.js';
import { damageText } from '../../i18n/damage.js';

const time = (at: number): string => {
  const d = new Date(at);
  return Number.isFinite(d.getTime()) && at > 1e12 ? d.toISOString().slice(11, 23) : `${Math.round(at)} ms`;
};

/** The first line of a journal's text in another language than English. */
const headerIn = (lang: string, header: JournalHeader): string => {
  const p = header.settings.pairing;
  return (
    t(lang, 'digest.journal', {
      game: header.game,
      board: header.board || '-',
      created: header.createdAt,
      edition: header.settings.edition,
      type: header.settings.gameType,
      time_control: header.settings.timeControl,
    }) +
    (p === undefined
      ? ''
      : `: ${t(lang, 'digest.journal.pairing', { round: p.round, white: p.white.name, black: p.black.name })}`)
  );
};

/** One line for a person. */
export const describeEvent = (e: GameEvent, lang: string = DEFAULT_LANG): string => {
  if (lang !== DEFAULT_LANG) return eventText(lang, e);
  switch (e.type) {
    case 'move':
      return `move ${Math.ceil(e.ply / 2)}${e.ply % 2 === 1 ? '.' : '...'} ${e.san}`;
    case 'correction':
      return `correction from ply ${e.fromPly} (${e.reason}): ${e.moves.map(m => m.san).join(' ') || 'plies removed'}`;
    case 'clock':
      return `clock white ${Math.round(e.whiteMs / 1000)} s, black ${Math.round(e.blackMs / 1000)} s, ${e.running ?? 'stopped'}`;
    case 'alert':
      return `ALERT ${e.code}${e.grade ? ` (${e.grade})` : ''} [${e.article.edition} ${e.article.article}] ${e.detail}`;
    case 'alert-withdrawn':
      return `alert #${e.alert} (${e.code}) withdrawn: ${e.reason === 'resolved' ? 'the board shows a position of the game again' : 'its ply was taken back'}`;
    case 'finding':
      return `finding on ply ${e.ply}, ${e.breach ? e.grade : 'information'}, not an alert: ${e.code} [${e.article.edition} ${e.article.article}] ${e.detail}`;
    case 'claim':
      return `claim ${e.claim} by ${e.by}: ${e.status} [${e.article.edition} ${e.article.article}]`;
    case 'offer':
      return `draw offer by ${e.by}: ${e.status}`;
    case 'end':
      return `END ${e.result} by ${e.reason} [${e.article.edition} ${e.article.article}]`;
  }
};

/**
 * The exit code when every journal was read but one was damaged: its good records were replayed
 * and the damaged ranges marked (`DAMAGED …` lines). 1 (a journal could not be read) wins over it.
 */
export const DAMAGED = 3;

const lostCount = (damage: readonly DamagedRange[]): number =>
  damage.reduce((n, d) => {
    const l = lostSeqs(d);
    return n + (l === undefined ? 0 : l.to - l.from + 1);
  }, 0);

export const replayJournals = async (
  paths: readonly string[],
  options: { readonly json: boolean; readonly lang?: string },
  engine: SupervisorPort,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> => {
  let code = 0;
  for (const path of paths) {
    // Damage inside the file is passed over: every record that checks out is replayed.
    const contents = await readJournalAll(path, { salvage: true });
    if (contents.isErr) {
      err(`chessbridge replay: ${contents.error.message}`);
      code = 1;
      continue;
    }
    const { header, records, tornTail, damage } = contents.value;
    const { events } = replayGameRun(
      engine,
      engineSettingsOf(header.game, header.settings),
      { clock: false },
      records,
    );
    const lang = options.lang ?? DEFAULT_LANG;
    if (!options.json && lang !== DEFAULT_LANG) out(headerIn(lang, header));
    else if (!options.json) {
      const p = header.settings.pairing;
      out(
        `${header.game} on board ${header.board || '-'} (journal of ${header.createdAt}; ${header.settings.edition} ${header.settings.gameType}, ${header.settings.timeControl})` +
          (p === undefined ? '' : `: round ${p.round}, ${p.white.name} - ${p.black.name}`),
      );
    }
    // Each damaged range is marked (in JSON mode on stderr only, so stdout stays events).
    for (const d of damage) {
      if (!options.json)
        out(
          lang === DEFAULT_LANG
            ? `DAMAGED ${describeDamage(d)}`
            : t(lang, 'digest.damaged', { damage: damageText(lang, d) }),
        );
      err(`chessbridge replay: journal damaged: ${describeDamage(d)}`);
    }
    if (damage.length > 0 && code === 0) code = DAMAGED;
    for (const e of events) {
      if (options.json) out(JSON.stringify(makeEventMessage(e)));
      else out(`${time(e.at)}  ${e.game} #${String(e.seq).padEnd(4)} ${describeEvent(e, options.lang)}`);
    }
    const last = records.at(-1);
    if (!options.json && lang !== DEFAULT_LANG)
      out(
        `${t(lang, 'digest.journal.records', { records: records.length, events: events.length })}${
          damage.length === 0
            ? ''
            : ` (${t(lang, 'digest.journal.salvaged', { ranges: damage.length })}, ${t(lang, 'digest.journal.lost', { lost: lostCount(damage) })})`
        }, ${
          last?.type === 'finish'
            ? t(lang, 'digest.journal.finished', {
                result: last.result,
                reason: endText(lang, wireWord(last.reason)),
              })
            : t(lang, 'digest.journal.unfinished')
        }`,
      );
    else if (!options.json)
      out(
        `${records.length} records${damage.length > 0 ? ` (salvaged around ${damage.length} damaged range${damage.length === 1 ? '' : 's'}, ${lostCount(damage)} records lost)` : ''}, ${events.length} events${last?.type === 'finish' ? `, finished ${last.result} (${last.reason})` : ', unfinished'}`,
      );
    if (tornTail !== undefined)
      err(`${path}: torn tail of ${tornTail.bytes} bytes at line ${tornTail.line} ignored`);
  }
  return code;
};
