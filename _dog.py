import sys, time, threading, traceback
import benchmarks.bench_gui_study as b
from PySide6.QtCore import QTimer
main_id = threading.main_thread().ident
last = [time.perf_counter()]; t0=[0.0]
events = []
def beat():
    now = time.perf_counter()
    if now - last[0] > 0.030: events.append(("GAP", round(now - t0[0], 2), round((now-last[0])*1e3,1), None))
    last[0] = now
def dog():
    while True:
        time.sleep(0.003)
        if time.perf_counter() - last[0] > 0.010:
            f = sys._current_frames().get(main_id)
            if f is not None:
                st = traceback.extract_stack(f)
                key = " <- ".join(f"{fr.name}@{fr.filename.split('/')[-1]}:{fr.lineno}" for fr in st[-7:][::-1] if 'bench_gui' not in fr.filename and '_dog' not in fr.filename)
                events.append(("in", round(time.perf_counter()-t0[0],3), None, key))
orig = b.measure_study
def measure(window, app):
    t = QTimer(); t.setInterval(2); t.timeout.connect(beat); t0[0]=time.perf_counter(); t.start()
    events.clear()
    threading.Thread(target=dog, daemon=True).start()
    r = orig(window, app); t.stop(); return r
b.measure_study = measure
sys.argv = ["x", "--runs", "2"]
if __name__ == "__main__":
    b.main()
    gaps=[e for e in events if e[0]=="GAP"]
    for g in gaps:
        print(g)
        for e in events:
            if e[0]=="in" and g[1]-g[2]/1000-0.005 <= e[1] <= g[1]: print("   ", e[1], e[3][:260])
