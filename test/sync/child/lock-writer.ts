// Child for the atomic-write test: rewrites a large lock file in a loop until it is killed.
import { writeLockFile, type LockFile } from '../../../src/sync/index.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: lock-writer.ts <lock file>');

function lockWith(count: number, round: number): LockFile {
  const articles: LockFile['articles'] = {};
  for (let i = 0; i < count; i++) {
    articles[`article-${i}`] = {
      keyword: `keyword ${i} round ${round}`,
      status: 'pending',
      hash: `sha256:${'a'.repeat(64)}`,
      articleId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      attempt: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: new Date().toISOString(),
    };
  }
  return { version: 1, articles };
}

for (let round = 0; ; round++) {
  // Alternate sizes so a torn write would show as a truncated or mixed file.
  await writeLockFile(file, lockWith(round % 2 === 0 ? 3000 : 1000, round));
  if (round === 0) console.log('writing');
}
