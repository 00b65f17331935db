# PhotoDeck: one command for the demo, one for the tests. Each installs the
# Debian packages it needs first (as root on Debian 12).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Libraries the package links, and the reference tools the tests compare with.
BUILD_PACKAGES := pkgconf tzdata libdbus-1-dev libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libjxl-dev libheif-dev libraw-dev libde265-dev liblcms2-dev libgif-dev zlib1g-dev libsqlite3-dev libssl-dev libcurl4-openssl-dev libsdl2-dev libsdl2-ttf-dev libx11-dev libchafa-dev libsixel-dev libavformat-dev libavcodec-dev libavfilter-dev libswscale-dev libswresample-dev libavutil-dev fonts-dejavu-core
TEST_PACKAGES := $(BUILD_PACKAGES) chromium chromium-driver python3-selenium ffmpeg stress-ng strace libjpeg-turbo-progs libimage-exiftool-perl webp libheif-examples imagemagick findimagedupes liblcms2-utils colord-data time python3 python3-pil python3-numpy fiu-utils util-linux iproute2 xvfb xauth xdotool x11-apps tmux procps xterm kitty mlterm tumbler gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav dbus dunst python3-gi libglib2.0-bin
BENCH_PACKAGES := $(TEST_PACKAGES) libjxl-tools ffmpeg libheif-examples libvips-tools imagemagick python3-pil hyperfine libimage-exiftool-perl time curl libsixel-bin chafa ffmpegthumbnailer timg

DEMO_OUT ?= $(CURDIR)/.build/demo

.PHONY: deps-build deps-test demo test test-debug test-loaded test-tsan check-map check-portable check-docs docs docs-preview check-consumer lint bench

define install_missing
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps-build:
	$(call install_missing,$(BUILD_PACKAGES))

deps-test:
	$(call install_missing,$(TEST_PACKAGES))

## demo: browse the bundled sample photos with photo-browser (pages, zoom,
## prefetch; a PNG of each screen; the first screen in the terminal), fit them with photo-fit, gather them into
## an album with photo-album, then show what photo-share would send.
demo: deps-build
	@# One product per call: `swift build` keeps only the last --product.
	for product in photo-browser photo-fit photo-album photo-share; do swift build -c release --product $$product || exit 1; done
	.build/release/photo-browser --viewport 390x844 --scale 2 --out "$(DEMO_OUT)/browser" Examples/Samples -- \
		next double-tap 200,400 pan -80,0 next next prev resize 844x390 tap goto 1
	@# The viewer's first screen in ANSI colour blocks (any terminal shows it; --display window opens a window).
	COLUMNS=72 LINES=20 .build/release/photo-browser --display ansi --once Examples/Samples
	@mkdir -p "$(DEMO_OUT)"
	@for photo in Examples/Samples/*.jpg Examples/Samples/*.png Examples/Samples/*.webp Examples/Samples/*.heic Examples/Samples/*.gif; do \
		name=$$(basename "$${photo%.*}"); \
		.build/release/photo-fit --width 640 --height 640 --quality 85 "$$photo" "$(DEMO_OUT)/$$name-fit.jpg" || exit 1; \
		.build/release/photo-fit --width 320 --height 320 --mode fill "$$photo" "$(DEMO_OUT)/$$name-square.webp" || exit 1; \
	done
	.build/release/photo-album --store "$(DEMO_OUT)/album" import --album Samples Examples/Samples
	.build/release/photo-album --store "$(DEMO_OUT)/album" list
	.build/release/photo-album --store "$(DEMO_OUT)/album" check
	.build/release/photo-share targets --dry-run --text "Waterfall" Examples/Samples/waterfall.jpg
	.build/release/photo-share share --to wecom/session --dry-run --text "Waterfall 瀑布" Examples/Samples/waterfall.jpg
	.build/release/photo-share share --to wechat/session --dry-run Examples/Samples/waterfall.jpg
	@echo "demo output: $(DEMO_OUT)"

## test: the whole test suite as users run the SDK, in two passes over one
## build. The libraries and tests are built with -c release, because the
## optimiser exposes what the debug build hides (Documentation/CompilerBugs),
## and with AddressSanitizer, which turns what it exposes in memory (an
## overrun in a C shim, a use after free) into a report where it happens;
## -enable-testing is what @testable imports need (.build/release-tests).
## Pass 1 runs every suite against the executables `swift build -c release`
## makes, as users build them (the six examples and the test tools, named to
## the tests by PHOTODECK_PRODUCTS); pass 2 runs the example suites again
## against the examples of the sanitized build (`--build-tests` built them
## too), so the hostile files, fuzz replays, decompression bombs, killed
## stores, terminals and sessions they are given are checked in their own
## processes as well. Warnings are errors in these builds, as in the
## ThreadSanitizer one; check-docs holds the debug build to none.
##
## At most TEST_WIDTH tests run at once. Unbounded, several hundred tests
## were in flight on two cores, each holding its loopback servers and files
## open (1,469 descriptors at the peak), and Foundation's Process.run() in
## Swift 6.3.1 over-reads its list of open descriptors past about 1,350 and
## crashes (swift-corelibs-foundation PR 5472). 24 at once: 290 at the
## peak, and the suite is faster. Sanitized examples are slower and larger,
## so pass 2 runs at most SANITIZED_WIDTH.
##
## This replaced a debug run, a release run and a debug AddressSanitizer run
## (CI's 79 minutes of 60); `swift test` (`make test-debug`) runs the debug
## suite, which rebuilds in seconds while working.
TEST_WIDTH ?= 24
SANITIZED_WIDTH ?= 6
WARNINGS_AS_ERRORS := -Xswiftc -warnings-as-errors
RELEASE_TESTS := .build/release-tests
RELEASE_TEST_BINS = "$$(swift build -c release --sanitize=address --build-path $(RELEASE_TESTS) --show-bin-path)"
test: deps-test
	swift build -c release
	swift build -c release --build-tests -Xswiftc -enable-testing --sanitize=address $(WARNINGS_AS_ERRORS) --build-path $(RELEASE_TESTS)
	@echo "pass 1: every suite, the examples as users build them"
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp PHOTODECK_PRODUCTS="$$(swift build -c release --show-bin-path)" \
		$(RELEASE_TEST_BINS)/PhotoDeckPackageTests.xctest --testing-library swift-testing \
		--experimental-maximum-parallelization-width $(TEST_WIDTH)
	@echo "pass 2: the example suites, the examples under AddressSanitizer"
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp PHOTODECK_SANITIZER=address PHOTODECK_PRODUCTS=$(RELEASE_TEST_BINS) \
		$(RELEASE_TEST_BINS)/PhotoDeckPackageTests.xctest --testing-library swift-testing \
		--experimental-maximum-parallelization-width $(SANITIZED_WIDTH) --filter '^ExampleTests\.'

## test-debug: the whole suite in a debug build (`swift test`), the quick
## loop while working; CI runs `make test`.
test-debug: deps-test
	swift test --disable-xctest --experimental-maximum-parallelization-width $(TEST_WIDTH)

## test-loaded: the debug suite LOADED_RUNS times (default 3) while
## stress-ng keeps every core busy (one CPU worker per core), so races and
## bounds too tight for a loaded machine fail here, not only on CI. The
## hog is stopped however a run ends.
LOADED_RUNS ?= 3
test-loaded: deps-test
	swift build --build-tests
	@for run in $$(seq 1 $(LOADED_RUNS)); do \
		echo "loaded run $$run of $(LOADED_RUNS): stress-ng --cpu $$(nproc) beside the suite"; \
		stress-ng --cpu "$$(nproc)" --cpu-method int64 --timeout 0 --quiet & hog=$$!; \
		swift test --disable-xctest --skip-build --experimental-maximum-parallelization-width $(TEST_WIDTH); status=$$?; \
		kill "$$hog" 2>/dev/null; wait "$$hog" 2>/dev/null; \
		[ $$status -eq 0 ] || { echo "loaded run $$run failed"; exit $$status; }; \
	done

## test-tsan: the concurrency suites under ThreadSanitizer: the image
## workers' lanes and escalation, the loopback server, the browser's session,
## folder and cache, the viewer's updates, grid and animations, the
## thumbnailer, the loader and the disk cache. It fails when a test fails or
## hangs (a deadlock fails within seconds, through `within`) and when TSan
## reports anything: the reports are written to .build/tsan/report.* and
## summarised. Built with -DPHOTODECK_TSAN, SystemSupport's Lock is a
## pthread mutex TSan intercepts (it cannot see Synchronization.Mutex's
## futex on Linux). exitcode=0 keeps the tools the tests run from exiting
## 66 on a report; the summary fails the target instead.
TSAN_SUITES ?= OutboxSchedulingTests|ForMeCacheTests|FiltersTests|WorkerTests|LoopbackHTTPServerTests|PhotoBrowserSessionTests|RenditionCacheTests|FolderPhotosTests|ViewerUpdatesTests|ViewerGridTests|ViewerAnimationTests|ThumbnailCacheTests|LoaderTests|DiskCacheTests
test-tsan: deps-test
	swift build --build-tests --sanitize=thread $(WARNINGS_AS_ERRORS) --build-path .build/tsan -Xswiftc -DPHOTODECK_TSAN
	rm -f .build/tsan/report.*
	PHOTODECK_SANITIZER=thread TSAN_OPTIONS="log_path=$(CURDIR)/.build/tsan/report exitcode=0" \
		"$$(swift build --show-bin-path --sanitize=thread --build-path .build/tsan)/PhotoDeckPackageTests.xctest" \
		--testing-library swift-testing --experimental-maximum-parallelization-width $(SANITIZED_WIDTH) --filter '$(TSAN_SUITES)'
	/usr/bin/python3 scripts/tsan-summary.py .build/tsan/report.*

## check-map: fails when the module map in README.md or Documentation/PhotoDeck.md
## is not what the manifest and the imports say, when a target declares a
## dependency none of its files imports (scripts/module-map.py --write fixes the map),
## or when a module other than SystemSupport calls the C library's system interface,
## or when a source holds a shape a toolchain is known to miscompile (Documentation/CompilerBugs),
## or calls a Foundation read that traps on EINTR.
check-map: deps-build
	python3 scripts/module-map.py --check
	python3 scripts/check-platform.py --self-test
	python3 scripts/check-platform.py
	python3 scripts/check-miscompiles.py --self-test
	python3 scripts/check-miscompiles.py
	python3 scripts/check-traps.py --self-test
	python3 scripts/check-traps.py

## check-portable: builds the libraries as they are built where Linux's own
## interfaces (V4L2, rtnetlink, inotify) do not exist, so the fallbacks
## (NoCaptureDevices, FixedNetworkMonitor, polling for folder changes) compile.
## Only Linux (Debian 12) is tested; this proves the other branch builds, no more.
check-portable: deps-build
	swift build --build-path .build/portable -Xswiftc -DPHOTODECK_NO_LINUX_APIS --target PhotoAlbum
	swift build --build-path .build/portable -Xswiftc -DPHOTODECK_NO_LINUX_APIS --target ShareKit

## check-docs: fails when a public symbol of a library has no doc comment,
## or when DocC cannot resolve a link (in a doc comment or a landing page).
## It builds the debug configuration first, and fails on any warning there
## (the release builds of `make test` treat warnings as errors).
check-docs: deps-test
	@mkdir -p .build
	swift build --build-tests > .build/debug-build.log 2>&1 || { cat .build/debug-build.log; exit 1; }
	@if grep -n "warning:" .build/debug-build.log; then echo "error: the debug build has the warnings above" >&2; exit 1; fi
	swift package dump-symbol-graph --minimum-access-level public >/dev/null
	python3 scripts/check-docs.py
	scripts/build-docs.sh

## docs: the DocC documentation of every library module, in one archive
## (.build/docs/PhotoDeck.doccarchive); docs-preview serves it on port 8080.
docs: deps-build
	scripts/build-docs.sh

docs-preview: deps-build
	scripts/build-docs.sh --preview

## check-consumer: builds, tests and runs Tests/Consumer, an app that depends
## on PhotoDeck as the README says, against this checkout (a path dependency
## through a link named PhotoDeck, so the package name matches). It fails if
## that build compiled a benchmark or the fuzz target: they sit in the root
## manifest (they use the package-access floors) but must never reach an app.
check-consumer: deps-build
	@work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	ln -s "$(CURDIR)" "$$work/PhotoDeck" && cp -R Tests/Consumer "$$work/MyApp" && \
	sed -i 's#\.package(url: "https://github.com/<owner>/PhotoDeck.git", branch: "main")#.package(path: "../PhotoDeck")#' "$$work/MyApp/Package.swift" && \
	grep -q 'package(path: "../PhotoDeck")' "$$work/MyApp/Package.swift" && \
	swift build --package-path "$$work/MyApp" && \
	swift test --package-path "$$work/MyApp" --disable-xctest && \
	"$$work/MyApp/.build/debug/MyApp" Examples/Samples/waterfall.jpg Examples/Samples/portrait.webp && \
	for target in $$(ls -d Benchmarks/*-bench | xargs -n1 basename) photodeck-fuzz; do \
		if [ -e "$$work/MyApp/.build/debug/$$(echo $$target | tr - _).build" ]; then \
			echo "error: a consumer's build compiled $$target (benchmarks and the fuzz target must never reach an app)" >&2; exit 1; \
		fi; \
	done && \
	echo "consumer build: none of $$(ls -d Benchmarks/*-bench | wc -l) benchmarks or the fuzz target compiled"

## lint: swift-format with the committed .swift-format configuration.
lint:
	swift format lint --strict --recursive Sources Tests Examples Benchmarks Fuzz

## bench: the benchmarks, beside the tools users reach for (release builds;
## each writes its section of BENCHMARKS.md). NAME=viewer runs one,
## NAME=list lists them, no NAME runs them all. Their scripts are in
## Benchmarks/Scripts; settings pass through the environment (RUNS=5, ...).
bench:
	$(call install_missing,$(BENCH_PACKAGES))
	/usr/bin/python3 Benchmarks/Scripts/run.py $(NAME)
