import { DataSource, type EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;
/** TypeORM does not export it; its last `transaction` overload takes it first. */
type IsolationLevel = Parameters<DataSource['transaction']>[0];

/**
 * A data source whose transactions just run their work: the fakes that take the manager ignore
 * it. The manager is that of a data source never opened, so a real query through it fails at once.
 */
export class FakeDataSource implements Pick<DataSource, 'transaction'> {
  private readonly unopened = new DataSource({ type: 'postgres' });

  transaction<T>(work: Work<T>): Promise<T>;
  transaction<T>(isolationLevel: IsolationLevel, work: Work<T>): Promise<T>;
  transaction<T>(first: IsolationLevel | Work<T>, second?: Work<T>): Promise<T> {
    const work = typeof first === 'function' ? first : second;
    if (!work) {
      throw new Error('a transaction needs its work');
    }
    return work(this.unopened.manager);
  }
}
