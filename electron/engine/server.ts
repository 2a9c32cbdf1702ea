import Fastify, { type FastifyInstance } from 'fastify'

/**
 * The embedded person server + BioEngine. This skeleton only listens and answers every path in the
 * BioEngineError shape; the API itself arrives with the engine issue.
 */
export function createEngineServer(): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 })
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ code: 404, message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` })
  })
  return app
}
