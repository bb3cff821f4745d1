package dev.stackbench.webflux.coroutines

import dev.stackbench.targets.common.ApiResponse
import dev.stackbench.targets.common.ApiResponses
import dev.stackbench.targets.common.BlockingSleep
import dev.stackbench.targets.common.FanoutMode
import dev.stackbench.targets.common.FanoutModes
import dev.stackbench.targets.common.JdbcStore
import dev.stackbench.targets.common.Limits
import dev.stackbench.targets.common.OrderRequests.ChangeStatus
import dev.stackbench.targets.common.OrderRequests.CreateOrder
import dev.stackbench.targets.common.RSocketDelayClient
import dev.stackbench.targets.common.ReactiveDelayClient
import dev.stackbench.targets.common.UpstreamProtocol
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.reactive.awaitLast
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.withContext
import org.springframework.context.annotation.Profile
import org.springframework.http.HttpStatus
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.PutMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.ResponseStatus
import org.springframework.web.bind.annotation.RestController

/**
 * webflux-coroutines: the contract's endpoints as suspend functions. The blocking work (JDBC, the Thread.sleep of the
 * sleep endpoint) runs in `withContext(Dispatchers.IO)`, which holds one of its threads (64 by default) for the whole
 * call, as boundedElastic does; only the upstream call suspends without holding a thread. Each answer is built where
 * the work completed, so its `thread` is the one that ran it: `DefaultDispatcher-worker-N`, or for upstream the Netty
 * event loop that received the delay service's answer (WebFlux resumes the handler unconfined). With `protocol=rsocket`
 * the upstream calls are RSocket streams awaited the same way (`awaitLast` on the stream of one item).
 */
@RestController
@RequestMapping("/api")
@Profile("webflux-coroutines")
class CoroutineApiController(
    private val delayService: ReactiveDelayClient,
    private val rsocket: RSocketDelayClient,
    private val jdbc: JdbcStore,
    private val responses: ApiResponses,
    private val fanoutModes: FanoutModes,
) {

    @GetMapping("/upstream")
    suspend fun upstream(@RequestParam delayMs: Int, @RequestParam(required = false) protocol: String?): ApiResponse {
        Limits.delayMs(delayMs)
        val chosen = UpstreamProtocol.choose(protocol)
        call(chosen, delayMs)
        return responses.upstream(delayMs, chosen)
    }

    /** One call to the delay service, suspended (no thread held) until it has answered. */
    private suspend fun call(protocol: UpstreamProtocol, delayMs: Int) {
        when (protocol) {
            UpstreamProtocol.HTTP -> delayService.delay(delayMs).awaitSingleOrNull()
            UpstreamProtocol.RSOCKET -> rsocket.items(delayMs, 1).awaitLast()
        }
    }

    /**
     * Parallel: one child coroutine per call, all suspended on WebClient at once (structured: the first failure cancels
     * the others and is the answer). Sequential: each call awaited before the next is sent.
     */
    @GetMapping("/fanout")
    suspend fun fanout(
        @RequestParam delayMs: Int,
        @RequestParam calls: Int,
        @RequestParam(required = false) mode: String?,
        @RequestParam(required = false) protocol: String?,
    ): ApiResponse {
        Limits.delayMs(delayMs)
        Limits.calls(calls)
        val chosen = fanoutModes.choose(mode)
        val over = UpstreamProtocol.choose(protocol)
        if (chosen == FanoutMode.PARALLEL) {
            coroutineScope { (1..calls).map { async { call(over, delayMs) } }.awaitAll() }
        } else {
            repeat(calls) { call(over, delayMs) }
        }
        return responses.fanout(delayMs, calls, chosen, over)
    }

    @GetMapping("/db")
    suspend fun db(@RequestParam sleepMs: Int): ApiResponse {
        Limits.sleepMs(sleepMs)
        return withContext(Dispatchers.IO) {
            jdbc.sleep(sleepMs)
            responses.db(sleepMs)
        }
    }

    @GetMapping("/sleep")
    suspend fun sleep(@RequestParam sleepMs: Int): ApiResponse {
        Limits.inProcessSleepMs(sleepMs)
        return withContext(Dispatchers.IO) {
            BlockingSleep.sleep(sleepMs)
            responses.sleep(sleepMs)
        }
    }

    @GetMapping("/mixed")
    suspend fun mixed(
        @RequestParam delayMs: Int,
        @RequestParam sleepMs: Int,
        @RequestParam(required = false) protocol: String?,
    ): ApiResponse {
        Limits.delayMs(delayMs)
        Limits.sleepMs(sleepMs)
        val chosen = UpstreamProtocol.choose(protocol)
        call(chosen, delayMs)
        return withContext(Dispatchers.IO) {
            jdbc.sleep(sleepMs)
            responses.mixed(delayMs, sleepMs, chosen)
        }
    }

    @GetMapping("/rows")
    suspend fun rows(@RequestParam count: Int): ApiResponse {
        Limits.count(count)
        return withContext(Dispatchers.IO) { responses.rows(jdbc.items(count)) }
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    suspend fun createOrder(@RequestBody order: CreateOrder): ApiResponse {
        val valid = order.validated()
        return withContext(Dispatchers.IO) { responses.orderCreated(jdbc.createOrder(valid)) }
    }

    @PutMapping("/orders/{orderId}/status")
    suspend fun changeStatus(@PathVariable orderId: Long, @RequestBody change: ChangeStatus): ApiResponse {
        val target = change.target()
        return withContext(Dispatchers.IO) { responses.orderStatus(orderId, jdbc.changeStatus(orderId, target)) }
    }
}
