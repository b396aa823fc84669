import type { Sequelize } from 'sequelize';

/** One database as the capabilities see it: its Sequelize instance (pool, queries, transactions). */
export interface Database {
  sequelize: Sequelize;
}

/**
 * Registers a capability's Sequelize model: the answer gives the model of a database, defining it on
 * that database's Sequelize instance the first time it is asked. Models live per instance (no global
 * registry), so several databases can live in one process, and `db/` never needs to know the capabilities.
 */
export function registerModel<M>(define: (sequelize: Sequelize) => M): (db: Database) => M {
  const defined = new WeakMap<Sequelize, M>();
  return (db) => {
    let model = defined.get(db.sequelize);
    if (model === undefined) {
      model = define(db.sequelize);
      defined.set(db.sequelize, model);
    }
    return model;
  };
}
