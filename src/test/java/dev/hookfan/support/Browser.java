package dev.hookfan.support;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Debian's headless Chromium driven through its ChromeDriver (scripts/services.sh --browser installs both), with a
 * profile of its own and none of the background traffic a closed network refuses.
 */
public final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private final ChromeDriver driver;
    private final Path profile;
    private final String base;

    private Browser(ChromeDriver driver, Path profile, String base) {
        this.driver = driver;
        this.profile = profile;
        this.base = base;
    }

    /** A browser whose relative paths are against the given base (the service's test URL). */
    public static Browser open(String base) {
        if (!new File(CHROMIUM).canExecute() || !new File(CHROMEDRIVER).canExecute()) {
            throw new IllegalStateException("Chromium and ChromeDriver are needed for the browser tests:"
                    + " scripts/services.sh --browser installs them (apt-get install chromium chromium-driver)");
        }
        try {
            Path profile = Files.createTempDirectory("hookfan-chromium");
            ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM).addArguments("--headless=new", "--no-sandbox",
                    "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1280,900", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                    .usingAnyFreePort().build();
            return new Browser(new ChromeDriver(service, options), profile, base.replaceAll("/+$", ""));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public void go(String pathOrUrl) {
        driver.get(pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl);
    }

    public String path() {
        return java.net.URI.create(driver.getCurrentUrl()).getPath();
    }

    public String url() {
        return driver.getCurrentUrl();
    }

    public String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    public String source() {
        return driver.getPageSource();
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public java.util.List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public void type(String css, String text) {
        WebElement field = find(css);
        field.clear();
        field.sendKeys(text);
    }

    /** Clicks, and when the click leaves the page (a link, a form's button) waits until the next page has loaded. */
    public void click(String css) {
        navigating(() -> find(css).click());
    }

    public void clickLink(String text) {
        navigating(() -> driver.findElement(By.linkText(text)).click());
    }

    /** Presses Enter in a field, which submits its form, and waits for the page that answers. */
    public void submitWithEnter(String css) {
        navigating(() -> find(css).sendKeys(org.openqa.selenium.Keys.ENTER));
    }

    private void navigating(Runnable action) {
        WebElement page = driver.findElement(By.tagName("html"));
        action.run();
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(10), Duration.ofMillis(50));
        // A click that stays on the page (a checkbox, a select) leaves the old document in place.
        try {
            wait.withTimeout(Duration.ofMillis(1500)).until(ignored -> gone(page));
        } catch (org.openqa.selenium.TimeoutException stayed) {
            return;
        }
        new WebDriverWait(driver, Duration.ofSeconds(10), Duration.ofMillis(50)).until(ignored -> "complete".equals(
                ((org.openqa.selenium.JavascriptExecutor) driver).executeScript("return document.readyState")));
    }

    /**
     * The old page's root is no longer in the document. Chromium sometimes says so with an "unknown error" (a node
     * that "does not belong to the document") rather than a stale reference, which Selenium's stalenessOf rethrows.
     */
    private static boolean gone(WebElement page) {
        try {
            page.isEnabled();
            return false;
        } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException stale) {
            return true;
        } catch (org.openqa.selenium.WebDriverException other) {
            if (other.getMessage() != null && other.getMessage().contains("does not belong to the document")) {
                return true;
            }
            throw other;
        }
    }

    /** Reloads until the condition holds (a page shows what was true when it was rendered). */
    public void reloadUntil(Duration atMost, Function<Browser, Boolean> condition) {
        new WebDriverWait(driver, atMost, Duration.ofMillis(300)).until(ignored -> {
            if (condition.apply(this)) {
                return true;
            }
            driver.navigate().refresh();
            return false;
        });
    }

    public void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** A PNG of the page, written where the screenshots of docs/ are made (-Dhookfan.screenshots=docs/portal). */
    public void screenshot(String name) {
        String directory = System.getProperty("hookfan.screenshots");
        if (directory == null) {
            return;
        }
        try {
            Path target = Path.of(directory).resolve(name + ".png");
            Files.createDirectories(target.getParent());
            Files.write(target, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public org.openqa.selenium.WebDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException ignored) {
            // A temporary profile left behind is harmless.
        }
    }
}
