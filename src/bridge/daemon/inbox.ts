/**
 * A queue that holds items until its one reader subscribes, then passes them through: the input
 * of a game's lane, which is filled (by a board, by a request) before or after the pipeline
 * starts reading it. Not a Subject: only the owner can push, and readers see an Observable.
 *
 *   const inbox = new Inbox<LaneItem>();
 *   inbox.push(item);                 // kept until read
 *   inbox.items$.subscribe(…);        // gets it now, and every later push
 *   inbox.close();                    // completes the reader once the queue is drained
 */
import { Observable, type Subscriber } from 'rxjs';

export class Inbox<T> {
  private queue: T[] = [];
  private reader: Subscriber<T> | undefined;
  private closed = false;

  /** The items, in order; one reader at a time. */
  readonly items$: Observable<T> = new Observable<T>(subscriber => {
    if (this.reader !== undefined) {
      subscriber.error(new Error('inbox: already has a reader'));
      return undefined;
    }
    this.reader = subscriber;
    const queued = this.queue;
    this.queue = [];
    for (const item of queued) subscriber.next(item);
    if (this.closed) subscriber.complete();
    return () => {
      this.reader = undefined;
    };
  });

  get isClosed(): boolean {
    return this.closed;
  }

  /** Adds an item; false when the inbox is closed. */
  push(item: T): boolean {
    if (this.closed) return false;
    if (this.reader !== undefined) this.reader.next(item);
    else this.queue.push(item);
    return true;
  }

  /** No more items: the reader completes after what is queued. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.reader !== undefined && this.queue.length === 0) this.reader.complete();
  }
}
