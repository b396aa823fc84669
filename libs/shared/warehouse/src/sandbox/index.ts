export {
  SimulationsService,
  type SimulationAudit,
  type SimulationCaller,
  type SimulationEvent,
  type SimulationResult,
} from './simulations.service.js';
export {
  SIMULATION_SCHEMAS,
  simulationTypeSchema,
  documentedSimulationSchema,
  validateSimulation,
  SIMULATION_TYPES,
  type SimulationInput,
  type SimulationType,
  type StockPlace,
} from './simulation.schemas.js';
