// The worker's whole code: bando/worker runs the engine and answers createWorkerEngine's calls.
import 'bando/worker';
