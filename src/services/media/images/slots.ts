import { CmsError } from '../../../core/errors.js';

/** Seconds a refused client is told to wait: about what one transform of a large photo takes here. */
export const BUSY_RETRY_SECONDS = 2;

/**
 * Transforms run at most `limit` at a time in this process; up to `queue` more wait their turn
 * (first come, first served) and any beyond that are refused at once with 503
 * IMAGE_TRANSFORM_BUSY, so a flood of new sizes costs a bounded amount of CPU and memory and
 * never a growing line of waiting requests. A finished transform hands its slot to the next.
 */
export class TransformSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else if (this.waiting.length < this.queue) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else {
      throw new CmsError('IMAGE_TRANSFORM_BUSY', 'Too many images are being transformed; try again shortly', {
        retryAfter: BUSY_RETRY_SECONDS,
      });
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  stats(): { active: number; queued: number } {
    return { active: this.active, queued: this.waiting.length };
  }
}
