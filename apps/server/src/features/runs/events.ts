import { EventEmitter } from 'node:events';
import type { RunEvent, TestEvent } from '@fullstop/contracts';

// The stream's messages (GET /test/events) are described and typed in @fullstop/contracts (tests.ts).
export type { RunEvent, TestEvent };

export type EngineEvent = { type: 'test'; data: TestEvent } | { type: 'run'; data: RunEvent };

/**
 * Fan-out of engine events per client: in this process, and (on PostgreSQL, through `relay`: the cluster
 * channel) to every other process's event hub (event-hub.ts), which polls only while that channel is down.
 */
export class EngineBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly relay?: (clientId: string, event: EngineEvent) => void) {
    this.emitter.setMaxListeners(0);
  }

  emit(clientId: string, event: EngineEvent): void {
    this.emitter.emit(clientId, event);
    this.emitter.emit('*', clientId, event);
    this.relay?.(clientId, event);
  }

  on(clientId: string, listener: (event: EngineEvent) => void): () => void {
    this.emitter.on(clientId, listener);
    return () => this.emitter.off(clientId, listener);
  }

  /** Every client's events through one listener (the event hub fans them out to its streams). */
  onAll(listener: (clientId: string, event: EngineEvent) => void): () => void {
    this.emitter.on('*', listener);
    return () => this.emitter.off('*', listener);
  }
}
