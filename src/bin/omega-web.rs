//! `omega-web`: serves the board on the loopback address. All the logic lives in
//! `omega::web`; this is the thin front door. Started as `omega-web --engine-process ...`, it
//! is the omega engine instead (`omega::cli`): its default engine when no omega is beside it.

use omega::web::cli::{
    default_engine, missing_program, parse_args, CliError, ENGINE_PROCESS_FLAG, USAGE,
};
use omega::web::{router, App};
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == ENGINE_PROCESS_FLAG) {
        return omega::cli::run(&args[1..]);
    }
    // The default engine: the omega binary beside this one, or this one as the engine.
    let default = std::env::current_exe()
        .map(|exe| default_engine(&exe))
        .unwrap_or_else(|_| vec!["omega".into()]);
    let config = match parse_args(&args, &default) {
        Ok(c) => c,
        Err(CliError::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(CliError::Usage(msg)) => {
            eprintln!("omega-web: {msg}");
            return ExitCode::from(2);
        }
    };
    let path = std::env::var_os("PATH");
    for engine in &config.engines {
        if let Some(why) = missing_program(engine, path.as_deref()) {
            eprintln!("omega-web: warning: {why}");
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("omega-web: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(serve(config));
    std::process::exit(code);
}

async fn serve(config: omega::web::cli::Config) -> i32 {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, config.port));
    let listener = match tokio::net::TcpListener::bind(address).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("omega-web: cannot listen on {address}: {e}");
            return 1;
        }
    };
    let address = listener.local_addr().unwrap_or(address);
    let engines: Vec<String> = config
        .engines
        .iter()
        .map(|e| format!("{} ({})", e.name, e.argv.join(" ")))
        .collect();
    eprintln!("omega-web: engines: {}", engines.join(", "));
    // The one line of output: where to point the browser (tests read it too).
    println!("omega-web: http://{address}/");
    let _ = std::io::stdout().flush();
    let app = App::new(config);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let served = axum::serve(listener, router(app.clone()))
        .with_graceful_shutdown(shutdown)
        .await;
    // Engines are child processes in groups of their own: end them before leaving.
    app.close_all();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("omega-web: {e}");
            1
        }
    }
}
