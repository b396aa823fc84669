export {
  SimulationsService,
  type SimulationAudit,
  type SimulationCaller,
  type SimulationEvent,
  type SimulationResult,
} from './simulations.service.js';
export {
  simulationSchema,
  SIMULATION_TYPES,
  type SimulationInput,
  type SimulationType,
  type StockPlace,
} from './simulation.schemas.js';
